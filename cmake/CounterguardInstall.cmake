# SPDX-License-Identifier: Apache-2.0
# `cmake --install` and `cpack` (the release tarball) give a relocatable package (docs/install.md):
#   bin/counterguard                  the tool with the built-in kernels
#   lib/libcounterguard.a             the harness your own runners and tests link (counterguard::counterguard)
#   lib/libcounterguard_main.a        the command line's main() (counterguard::main, with counterguard_add_runner)
#   lib/counterguard/                 the injection library of `exec` and the shared libraries counterguard
#                                     needs that a host may lack (yaml-cpp, muparser, SQLite, ...); CUPTI
#                                     (libcupti, libnvperf_host) in cupti/ (COUNTERGUARD_BUNDLE_CUPTI)
#   lib/python3/dist-packages/        the Python package and its C ABI library (python/CMakeLists.txt)
#   include/counterguard/             the user API: counterguard.hpp and what it includes, the gtest API
#   lib/cmake/counterguard/           find_package(counterguard 0.3 CONFIG REQUIRED)
#   share/counterguard/               the built-in suites (cases/), their baselines, the JSON Schemas (schemas/);
#                                     the wheel (python/, cmake/CounterguardWheel.cmake)
#   share/doc/counterguard/           README.md, LICENSE, CHANGELOG.md, the third-party notices and licences,
#                                     and what README.md links to: docs/, schemas/, examples/, validation/*.md
# Every run path is relative ($ORIGIN), so the package runs from wherever it is unpacked. A project that uses it
# needs the CUDA toolkit and nothing else of counterguard's dependencies: counterguardConfig.cmake finds CUDA
# only; the package's library is linked with the shared libraries in lib/counterguard/ by path.
include(CMakePackageConfigHelpers)
set(COUNTERGUARD_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/counterguard")
set(COUNTERGUARD_INSTALL_PRIVATE_LIBDIR "${CMAKE_INSTALL_LIBDIR}/counterguard")
option(COUNTERGUARD_BUNDLE_CUPTI "Bundle the toolkit's CUPTI (libcupti, libnvperf_host) with the installed tool" ON)

# The user API is harness/include/ as it stands: the umbrella header, what it includes, the gtest API and the
# header of the resource reports that counterguard_link_kernels generates (every other header sits with its area
# in harness/src/). Nothing there may include a header from elsewhere, nor one of counterguard's dependencies
# (tools/test_release.sh compiles each against the package alone).
install(DIRECTORY "${PROJECT_SOURCE_DIR}/harness/include/counterguard" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(FILES "${COUNTERGUARD_AREA_INCLUDE_DIR}/generated/counterguard/version.hpp"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/counterguard")

# counterguard::counterguard: one static library of every area's objects (the areas stay internal), and
# counterguard::main, the main() that counterguard_add_runner links (kept apart: an archive member defining
# main would be pulled into any program that links the library).
if(NOT EXISTS "${PROJECT_SOURCE_DIR}/harness/src/counterguard/cli/main.cpp")
  message(FATAL_ERROR
          "cmake/CounterguardInstall.cmake packages main() from harness/src/counterguard/cli/main.cpp, which is gone")
endif()
set(main_object "/main[.]cpp[.]o$")
get_property(area_targets GLOBAL PROPERTY COUNTERGUARD_AREA_TARGETS)
set(package_objects "")
foreach(area_target IN LISTS area_targets)
  get_target_property(type ${area_target} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    list(APPEND package_objects "$<FILTER:$<TARGET_OBJECTS:${area_target}>,EXCLUDE,${main_object}>")
  endif()
endforeach()
add_library(counterguard_package STATIC ${package_objects})
add_library(counterguard_main_package STATIC "$<FILTER:$<TARGET_OBJECTS:counterguard_cli>,INCLUDE,${main_object}>")
# The CUDA runtime of the program that links it (CMake's CUDA default is the static one): one runtime per
# process, so the harness's queries (cudaFuncGetAttributes) see the kernels the program registered.
set(package_cuda_runtime
    "$<IF:$<STREQUAL:$<UPPER_CASE:$<TARGET_PROPERTY:CUDA_RUNTIME_LIBRARY>>,SHARED>,CUDA::cudart,CUDA::cudart_static>")
target_link_libraries(counterguard_package INTERFACE
  "$<INSTALL_INTERFACE:${package_cuda_runtime};CUDA::cupti;counterguard::private_runtime;${CMAKE_DL_LIBS}>")
target_include_directories(counterguard_package INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(counterguard_main_package INTERFACE $<INSTALL_INTERFACE:counterguard::counterguard>)
set_target_properties(counterguard_package PROPERTIES
  OUTPUT_NAME counterguard EXPORT_NAME counterguard LINKER_LANGUAGE CXX
  ARCHIVE_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/package-libraries")
set_target_properties(counterguard_main_package PROPERTIES
  OUTPUT_NAME counterguard_main EXPORT_NAME main LINKER_LANGUAGE CXX
  ARCHIVE_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/package-libraries")
install(TARGETS counterguard_package counterguard_main_package EXPORT counterguardTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

# `counterguard exec` loads the injection library into programs: the installed tool finds it in
# <libdir>/counterguard, and it finds its libraries beside it.
install(TARGETS counterguard_injection EXPORT counterguardTargets
        LIBRARY DESTINATION ${COUNTERGUARD_INSTALL_PRIVATE_LIBDIR})
install(EXPORT counterguardTargets NAMESPACE counterguard:: DESTINATION ${COUNTERGUARD_INSTALL_CMAKEDIR})

set(bundle_executables "")
# The libraries loaded with dlopen: the injection library, and the Python package's C ABI (python/CMakeLists.txt
# installs it in the package, whose run paths lead here).
set(bundle_modules "$<TARGET_FILE:counterguard_injection>")
if(TARGET counterguard_capi)
  list(APPEND bundle_modules "$<TARGET_FILE:counterguard_capi>")
endif()
if(TARGET counterguard)
  set(private "\$ORIGIN/../${COUNTERGUARD_INSTALL_PRIVATE_LIBDIR}")
  set_target_properties(counterguard PROPERTIES INSTALL_RPATH "${private};${private}/cupti")
  install(TARGETS counterguard RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  set(bundle_executables "$<TARGET_FILE:counterguard>")
  install(DIRECTORY cases/ DESTINATION ${CMAKE_INSTALL_DATADIR}/counterguard/cases)
  install(DIRECTORY baselines/ DESTINATION ${CMAKE_INSTALL_DATADIR}/counterguard/baselines)
  # Beside cases/: a suite's `# yaml-language-server: $schema=../schemas/suite.schema.json` finds it (docs/schema.md).
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/schemas/" DESTINATION ${CMAKE_INSTALL_DATADIR}/counterguard/schemas)
endif()

# The shared libraries the tool, the injection library and a program linking the package need that a host may
# lack, copied from this build machine (Debian's, found through the build's run paths). zlib too: a project
# linking the package links it by path, with no zlib development package.
set(bundled_debian
    "libmuparser|libyaml-cpp|libsqlite3|libcrypto|liblz4|libzstd|libfmt|libz")
set(bundle_script "${PROJECT_SOURCE_DIR}/cmake/bundle_runtime_libraries.cmake")
install(CODE "
  set(EXECUTABLES \"${bundle_executables}\")
  set(MODULES \"${bundle_modules}\")
  set(BUNDLED \"${bundled_debian}\")
  set(DESTINATION \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${COUNTERGUARD_INSTALL_PRIVATE_LIBDIR}\")
  message(STATUS \"Bundling runtime libraries: \${DESTINATION}\")
  include(\"${bundle_script}\")
")
# CUPTI as this build's toolkit has it, in its own folder: a project that links the package uses its own
# toolkit's CUPTI (CUDA::cupti), so the two never shadow each other. libnvperf_host is opened (not linked):
# counterguard looks for it beside libcupti. NVIDIA's licence terms travel with it (share/doc).
if(COUNTERGUARD_BUNDLE_CUPTI)
  install(CODE "
    set(EXECUTABLES \"${bundle_executables}\")
    set(MODULES \"${bundle_modules}\")
    set(BUNDLED \"libcupti\")
    set(DESTINATION \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${COUNTERGUARD_INSTALL_PRIVATE_LIBDIR}/cupti\")
    include(\"${bundle_script}\")
  ")
  file(REAL_PATH "${CUPTI_NVPERF_HOST_LIBRARY}" nvperf_host_file)
  install(FILES "${nvperf_host_file}" DESTINATION ${COUNTERGUARD_INSTALL_PRIVATE_LIBDIR}/cupti
          RENAME libnvperf_host.so)
  set(cupti_licence "")
  foreach(candidate "${CUDAToolkit_LIBRARY_ROOT}/EULA.txt" "${CUDAToolkit_BIN_DIR}/../EULA.txt")
    if(EXISTS "${candidate}" AND NOT cupti_licence)
      set(cupti_licence "${candidate}")
    endif()
  endforeach()
  if(NOT cupti_licence)
    get_filename_component(toolkit_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
    file(GLOB cupti_licence "${toolkit_root}/dist-info/nvidia_cuda_cupti-*/licenses/License.txt")
  endif()
  if(NOT cupti_licence)
    message(FATAL_ERROR "COUNTERGUARD_BUNDLE_CUPTI: no NVIDIA licence (EULA.txt) found in the CUDA toolkit to "
                        "ship with CUPTI; set COUNTERGUARD_BUNDLE_CUPTI=OFF to use the host's CUPTI instead")
  endif()
  list(GET cupti_licence 0 cupti_licence)
  install(FILES "${cupti_licence}" DESTINATION ${CMAKE_INSTALL_DOCDIR}/third-party RENAME NVIDIA-CUDA-EULA.txt)
endif()

# Licences: counterguard's, and those of what the package carries (compiled in or bundled), as Debian ships them.
install(FILES LICENSE CHANGELOG.md README.md packaging/THIRD-PARTY-NOTICES.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# What README.md and docs/ link to, laid out as in the repository so that every relative link resolves
# (tools/test_release.sh checks them): the reference pages, the schemas, the measured figures, the examples.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/schemas/" DESTINATION ${CMAKE_INSTALL_DOCDIR}/schemas)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/examples/" DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
        PATTERN "__pycache__" EXCLUDE)
install(FILES "${PROJECT_SOURCE_DIR}/validation/README.md" "${PROJECT_SOURCE_DIR}/validation/h200.md"
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/validation)
install(CODE "
  set(documents \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DOCDIR}/third-party\")
  file(MAKE_DIRECTORY \"\${documents}\")
  foreach(package libyaml-cpp0.7 libmuparser2v5 libsqlite3-0 libssl3 liblz4-1 libzstd1 zlib1g libfmt9
                  nlohmann-json3-dev libcli11-dev libboost1.74-dev)
    if(EXISTS \"/usr/share/doc/\${package}/copyright\")
      configure_file(\"/usr/share/doc/\${package}/copyright\" \"\${documents}/\${package}.copyright\" COPYONLY)
    endif()
  endforeach()
")

configure_package_config_file(cmake/counterguardConfig.cmake.in
  "${CMAKE_CURRENT_BINARY_DIR}/counterguardConfig.cmake" INSTALL_DESTINATION ${COUNTERGUARD_INSTALL_CMAKEDIR}
  PATH_VARS COUNTERGUARD_INSTALL_PRIVATE_LIBDIR)
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/counterguardConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${CMAKE_CURRENT_BINARY_DIR}/counterguardConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/counterguardConfigVersion.cmake"
  cmake/CounterguardKernels.cmake
  cmake/CounterguardCaseTests.cmake
  cmake/counterguard_case_tests_discovery.cmake
  cmake/embed_resource_reports.cmake
  cmake/bundle_runtime_libraries.cmake
  DESTINATION ${COUNTERGUARD_INSTALL_CMAKEDIR})
install(PROGRAMS cmake/nvcc_resource_usage_launcher.sh DESTINATION ${COUNTERGUARD_INSTALL_CMAKEDIR})

if(TARGET counterguard AND TARGET counterguard_capi)
  include(CounterguardWheel)
endif()
include(CounterguardPackaging)
