# SPDX-License-Identifier: Apache-2.0
# Copies the shared libraries of EXECUTABLE (or EXECUTABLES, and MODULES: libraries loaded with dlopen) that a
# GPU host may lack into DESTINATION, under the names they are asked for (libmuparser.so.2). Script mode:
#   cmake -DEXECUTABLE=... -DDESTINATION=... -P bundle_runtime_libraries.cmake
# or include()d with the variables set (the package's install step). BUNDLED, a regular-expression
# alternation of library names, chooses the libraries; by default those below. The C/C++ runtime, zlib, the
# CUDA driver and the toolkit's CUPTI belong to the host and are not copied unless BUNDLED names them.
if(NOT DEFINED BUNDLED)
  set(BUNDLED "libmuparser|libyaml-cpp|libsqlite3|libcrypto|liblz4|libzstd|libfmt")
endif()
if(NOT DEFINED EXECUTABLES)
  set(EXECUTABLES "${EXECUTABLE}")
endif()
set(bundle_modules "")
if(MODULES)
  set(bundle_modules MODULES ${MODULES})
endif()
file(MAKE_DIRECTORY "${DESTINATION}")
file(GET_RUNTIME_DEPENDENCIES
  EXECUTABLES ${EXECUTABLES}
  ${bundle_modules}
  RESOLVED_DEPENDENCIES_VAR resolved
  UNRESOLVED_DEPENDENCIES_VAR unresolved
  PRE_INCLUDE_REGEXES "^(${BUNDLED})\\.so"
  PRE_EXCLUDE_REGEXES ".*"
  CONFLICTING_DEPENDENCIES_PREFIX conflicting)
# A library that another bundled one loads resolves both to the system's copy and, through
# the executable's $ORIGIN/lib, to the copy made last time: the system's is the one to copy.
foreach(name IN LISTS conflicting_FILENAMES)
  foreach(candidate IN LISTS conflicting_${name})
    file(REAL_PATH "${candidate}" candidate_path)
    file(REAL_PATH "${DESTINATION}" destination_path)
    string(FIND "${candidate_path}" "${destination_path}/" inside)
    if(NOT inside EQUAL 0)
      list(APPEND resolved "${candidate}")
      break()
    endif()
  endforeach()
endforeach()
foreach(library IN LISTS resolved)
  get_filename_component(name "${library}" NAME)
  # The resolved path is the name the executable asks for (libmuparser.so.2): copy what it points to.
  file(REAL_PATH "${library}" target)
  if(NOT EXISTS "${DESTINATION}/${name}" OR "${target}" IS_NEWER_THAN "${DESTINATION}/${name}")
    configure_file("${target}" "${DESTINATION}/${name}" COPYONLY)
  endif()
endforeach()
