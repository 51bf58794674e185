# Copies the shared libraries of EXECUTABLE that a GPU host may lack into DESTINATION (script mode:
# cmake -DEXECUTABLE=... -DDESTINATION=... -P bundle_runtime_libraries.cmake). Only libraries from the list
# below are copied: the C/C++ runtime, zlib, the CUDA driver and the toolkit's CUPTI belong to the host.
set(bundled "libmuparser|libyaml-cpp|libsqlite3|libcrypto|liblz4|libzstd|libfmt|libdw|libelf|liblzma|libbz2")
file(GET_RUNTIME_DEPENDENCIES
  EXECUTABLES "${EXECUTABLE}"
  RESOLVED_DEPENDENCIES_VAR resolved
  UNRESOLVED_DEPENDENCIES_VAR unresolved
  PRE_INCLUDE_REGEXES "^(${bundled})\\.so"
  PRE_EXCLUDE_REGEXES ".*")
file(MAKE_DIRECTORY "${DESTINATION}")
foreach(library IN LISTS resolved)
  get_filename_component(name "${library}" NAME)
  # The resolved path is the name the executable asks for (libmuparser.so.2): copy what it points to.
  file(REAL_PATH "${library}" target)
  if(NOT EXISTS "${DESTINATION}/${name}" OR "${target}" IS_NEWER_THAN "${DESTINATION}/${name}")
    configure_file("${target}" "${DESTINATION}/${name}" COPYONLY)
  endif()
endforeach()
