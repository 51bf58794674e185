# SPDX-License-Identifier: Apache-2.0
# Unity builds of the harness areas and of the unit-test programs: CMake compiles each target's sources as one
# source, so the headers they all include (the standard library, nlohmann/json, CLI11, yaml-cpp, GoogleTest) are
# parsed and their templates instantiated once per target instead of once per source. That is most of the
# build's time on 2 cores: the command line's 24 sources took 213 s of CPU one by one, 95 s in batches of eight
# and 34 s as one source; model's 9 test sources 47 s and 22 s. COUNTERGUARD_UNITY_BUILD=OFF compiles source by
# source (quicker to rebuild after editing one source, and what a compiler cache or clang-tidy may prefer).
#
# A source whose anonymous-namespace helpers share a name with another source's of its target is compiled on its
# own: the list below. A new clash shows as a "redefinition" error naming both sources; add the later one here
# (or rename the helper).
option(COUNTERGUARD_UNITY_BUILD "Compile the harness areas and test programs in unity batches (faster builds)" ON)
if(NOT COUNTERGUARD_UNITY_BUILD)
  return()
endif()

set(counterguard_own_sources
    harness/src/counterguard/baselines/baseline_change_summary.cpp
    harness/src/counterguard/blame/blame_diff.cpp
    # The package's main() (cmake/CounterguardInstall.cmake) is its own object.
    harness/src/counterguard/cli/main.cpp
    harness/src/counterguard/model/instance_expansion.cpp
    harness/src/counterguard/profiler/device_profiler.cpp
    harness/src/counterguard/reporters/check_bar.cpp
    harness/src/counterguard/statics/fatbin_container.cpp
    harness/test/baselines/baseline_entry_refresh_test.cpp
    harness/test/blame/h200_blame_recording_test.cpp
    harness/test/cli/baseline_diff_command_test.cpp
    harness/test/cli/compare_command_test.cpp
    harness/test/cli/evaluate_extra_metrics_test.cpp
    harness/test/cli/exec_command_test.cpp
    harness/test/cli/exec_demo_recording_test.cpp
    harness/test/cli/predication_recording_test.cpp
    harness/test/cli/scaling_commands_test.cpp
    harness/test/core/yaml_reader_test.cpp
    harness/test/reporters/html_report_browser_test.cpp
    harness/test/reporters/html_reporter_test.cpp
    harness/test/runner/program_supervisor_test.cpp
    harness/test/runner/regression_blame_test.cpp
    harness/test/statics/binary_resources_test.cpp
    harness/test/statics/builtin_kernel_resources_test.cpp)

function(_counterguard_unity_targets out directory)
  get_property(targets DIRECTORY "${directory}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirectories DIRECTORY "${directory}" PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    _counterguard_unity_targets(more "${subdirectory}")
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

get_property(counterguard_unity_targets GLOBAL PROPERTY COUNTERGUARD_AREA_TARGETS)
# The C ABI of the Python package too (not an area: a shared library of its own sources).
if(TARGET counterguard_capi)
  list(APPEND counterguard_unity_targets counterguard_capi)
endif()
if(COUNTERGUARD_BUILD_TESTS)
  _counterguard_unity_targets(test_targets "${PROJECT_SOURCE_DIR}/harness/test")
  foreach(target IN LISTS test_targets)
    # The unit-test programs (<area>_tests); the GPU programs of harness/test/device are CUDA sources.
    if(target MATCHES "_tests$" AND NOT target STREQUAL "device_fill_tests")
      list(APPEND counterguard_unity_targets ${target})
    endif()
  endforeach()
endif()
foreach(target IN LISTS counterguard_unity_targets)
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
  endif()
endforeach()
foreach(source IN LISTS counterguard_own_sources)
  # A test program's source exists as a target's source only where the tests are built (not as a subproject).
  if(source MATCHES "^harness/test/" AND NOT COUNTERGUARD_BUILD_TESTS)
    continue()
  endif()
  get_filename_component(directory "${PROJECT_SOURCE_DIR}/${source}" DIRECTORY)
  set_source_files_properties("${PROJECT_SOURCE_DIR}/${source}" DIRECTORY "${directory}"
                              PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endforeach()
