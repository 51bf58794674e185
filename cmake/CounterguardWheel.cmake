# SPDX-License-Identifier: Apache-2.0
# The wheel (docs/python.md): `cmake --build build --target wheel` writes
# build/dist/counterguard-<version>-py3-none-manylinux_2_<glibc>_<arch>.whl with the standard library alone
# (packaging/wheel/build_wheel.py): the package and its pytest plugin, the C ABI library, the tool as the
# `counterguard` console command with the injection library of `exec`, and the libraries they need that a
# manylinux system lacks (CUPTI among them unless COUNTERGUARD_BUNDLE_CUPTI is off). The release carries it in
# share/counterguard/python/. Needs patchelf (Debian: patchelf) to set the bundled libraries' run paths.
find_program(COUNTERGUARD_PATCHELF patchelf DOC "patchelf, which sets the run paths of the wheel's libraries")
if(NOT COUNTERGUARD_PATCHELF)
  set(COUNTERGUARD_PATCHELF "patchelf-not-found(install patchelf, tools/setup.sh)")
endif()
find_package(Python3 COMPONENTS Interpreter)
set(wheel_python "${Python3_EXECUTABLE}")
if(NOT wheel_python)
  set(wheel_python python3)
endif()

set(wheel_arguments
    --version ${PROJECT_VERSION}
    --package-dir "${PROJECT_SOURCE_DIR}/python/counterguard"
    --capi "$<TARGET_FILE:counterguard_capi>"
    --tool "$<TARGET_FILE:counterguard>"
    --injection "$<TARGET_FILE:counterguard_injection>"
    --readme "${PROJECT_SOURCE_DIR}/python/README.md"
    --entry-points "${PROJECT_SOURCE_DIR}/python/cmake/entry_points.txt"
    --licence "${PROJECT_SOURCE_DIR}/LICENSE"
    --licence "${PROJECT_SOURCE_DIR}/packaging/THIRD-PARTY-NOTICES.md"
    --patchelf "${COUNTERGUARD_PATCHELF}")
if(COUNTERGUARD_BUNDLE_CUPTI)
  # libnvperf_host is opened, not linked: named here; NVIDIA's licence terms travel with CUPTI.
  list(APPEND wheel_arguments --module "${nvperf_host_file}" --licence "${cupti_licence}")
else()
  list(APPEND wheel_arguments --host-library "libcupti.so.${CUDAToolkit_VERSION_MAJOR}")
endif()
set(wheel_builder "${PROJECT_SOURCE_DIR}/packaging/wheel/build_wheel.py")

add_custom_target(wheel
  COMMAND "${wheel_python}" "${wheel_builder}" ${wheel_arguments} --output-dir "${PROJECT_BINARY_DIR}/dist"
  DEPENDS counterguard counterguard_capi counterguard_injection
  COMMENT "Building the wheel in ${PROJECT_BINARY_DIR}/dist"
  VERBATIM)

# The release carries the wheel, built from the same files at install time.
set(quoted_arguments "")
foreach(argument IN LISTS wheel_arguments)
  string(APPEND quoted_arguments " \"${argument}\"")
endforeach()
if(NOT EXISTS "${COUNTERGUARD_PATCHELF}")
  install(CODE "message(WARNING \"the wheel is not part of this installation: patchelf was not found (install it, \"
                                \"tools/setup.sh, and configure again)\")")
  return()
endif()
install(CODE "
  set(wheel_dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/counterguard/python\")
  message(STATUS \"Building the wheel: \${wheel_dir}\")
  execute_process(COMMAND \"${wheel_python}\" \"${wheel_builder}\"${quoted_arguments} --output-dir \"\${wheel_dir}\"
                  RESULT_VARIABLE wheel_status OUTPUT_QUIET)
  if(NOT wheel_status EQUAL 0)
    message(FATAL_ERROR \"building the wheel failed (\${wheel_status})\")
  endif()
")
