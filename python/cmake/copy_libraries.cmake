# Copies the shared libraries in SOURCE (the Debian libraries bundled for GPU hosts) into DESTINATION
# (script mode: cmake -DSOURCE=... -DDESTINATION=... -P copy_libraries.cmake). SOURCE may not exist yet.
file(MAKE_DIRECTORY "${DESTINATION}")
file(GLOB libraries "${SOURCE}/*.so*")
foreach(library IN LISTS libraries)
  get_filename_component(name "${library}" NAME)
  if(name MATCHES "counterguard")
    continue()  # counterguard's own libraries (the injection runners carry) are not the package's
  endif()
  file(REAL_PATH "${library}" target)
  configure_file("${target}" "${DESTINATION}/${name}" COPYONLY)
endforeach()
