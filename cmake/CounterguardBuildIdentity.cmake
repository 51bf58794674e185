# SPDX-License-Identifier: Apache-2.0
# The identity `counterguard --version` prints (counterguard/cli/build_identity.hpp). The commit comes from git at
# configure time and is "unknown" where the sources are not a git checkout of their own (an unpacked source
# archive, a copied folder inside another repository); a commit or checkout re-runs the configure step, so it
# follows HEAD.
set(COUNTERGUARD_GIT_COMMIT "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --show-toplevel
                  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" OUTPUT_VARIABLE toplevel
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE status)
  if(status EQUAL 0)
    file(REAL_PATH "${toplevel}" toplevel)
    file(REAL_PATH "${PROJECT_SOURCE_DIR}" source_dir)
  endif()
  if(status EQUAL 0 AND toplevel STREQUAL source_dir)
    execute_process(COMMAND "${GIT_EXECUTABLE}" describe --tags --always --dirty --abbrev=12
                    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" OUTPUT_VARIABLE COUNTERGUARD_GIT_COMMIT
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --git-path HEAD --symbolic-full-name HEAD
                    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" OUTPUT_VARIABLE git_paths
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    string(REPLACE "\n" ";" git_paths "${git_paths}")
    list(GET git_paths 0 head_file)
    set(watched "${head_file}")
    list(LENGTH git_paths count)
    if(count GREATER 1)
      list(GET git_paths 1 branch)
      execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --git-path "${branch}" --git-path packed-refs
                      WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" OUTPUT_VARIABLE ref_files
                      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      string(REPLACE "\n" ";" ref_files "${ref_files}")
      list(APPEND watched ${ref_files})
    endif()
    foreach(file IN LISTS watched)
      get_filename_component(file "${file}" ABSOLUTE BASE_DIR "${PROJECT_SOURCE_DIR}")
      if(EXISTS "${file}")
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
      endif()
    endforeach()
  endif()
  if(COUNTERGUARD_GIT_COMMIT STREQUAL "")
    set(COUNTERGUARD_GIT_COMMIT "unknown")
  endif()
endif()
file(STRINGS "${CUPTI_PROFILER_HOST_INCLUDE_DIR}/cupti_version.h" cupti_version_line
     REGEX "^#define CUPTI_API_VERSION [0-9]+")
string(REGEX REPLACE "^#define CUPTI_API_VERSION ([0-9]+).*" "\\1" COUNTERGUARD_CUPTI_API_VERSION
       "${cupti_version_line}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/build_identity.cpp.in" "${PROJECT_BINARY_DIR}/generated/build_identity.cpp"
               @ONLY)
# In the command line only: a new commit relinks the runners, not every test program.
target_sources(counterguard_cli PRIVATE "${PROJECT_BINARY_DIR}/generated/build_identity.cpp")
