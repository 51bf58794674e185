# SPDX-License-Identifier: Apache-2.0
# One CTest test per case instance, so `ctest -j N --resource-spec-file gpus.json` spreads the cases of a
# project's suites over a host's GPUs, and `ctest -L <suite>` runs one suite.
#
#   counterguard_add_case_tests(<runner target>
#                               CASES <suite files or directories...>
#                               [FILTER <pattern>]             only instances whose name matches (* wildcard)
#                               [RESOURCE_GROUPS <spec>]       default "gpus:1"; "" for none
#                               [LABELS <labels...>]           besides "gpu" and the suite's name
#                               [ARGS <arguments...>]          more `run` arguments (--baseline-dir D, --strict)
#                               [TEST_PREFIX <prefix>]         test name = prefix + instance name
#                               [WORKING_DIRECTORY <dir>]      default: the current source directory
#                               [TIMEOUT <seconds>])
#
# Each test runs `<runner> run <suite file> --filter <instance> --require-gpu --quiet <ARGS>`. With
# --resource-spec-file, ctest gives each test one GPU (CTEST_RESOURCE_GROUP_0_GPUS), and counterguard profiles
# on that GPU when no --device is given. Without it the tests still run (one at a time per GPU: counterguard's
# GPU lock queues them).
#
# The instances are listed when ctest starts (`<runner> list --json -`, no GPU needed), the way
# gtest_discover_tests(DISCOVERY_MODE PRE_TEST) does: editing a suite needs no reconfigure.

set(COUNTERGUARD_CASE_TESTS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/counterguard_case_tests_discovery.cmake"
    CACHE INTERNAL "")

function(counterguard_add_case_tests runner)
  cmake_parse_arguments(arg "" "FILTER;RESOURCE_GROUPS;TEST_PREFIX;WORKING_DIRECTORY;TIMEOUT"
                        "CASES;LABELS;ARGS" ${ARGN})
  if(NOT TARGET ${runner})
    message(FATAL_ERROR "counterguard_add_case_tests: '${runner}' is not a target (a counterguard_add_runner)")
  endif()
  if(NOT arg_CASES)
    message(FATAL_ERROR "counterguard_add_case_tests(${runner}): CASES names no suite file or directory")
  endif()
  # RESOURCE_GROUPS "" asks for none: before CMake 3.31 (CMP0174) an empty value leaves the variable
  # undefined and lists the keyword as missing its value.
  if(NOT DEFINED arg_RESOURCE_GROUPS AND NOT "RESOURCE_GROUPS" IN_LIST arg_KEYWORDS_MISSING_VALUES)
    set(arg_RESOURCE_GROUPS "gpus:1")
  endif()
  if(NOT arg_WORKING_DIRECTORY)
    set(arg_WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  set(cases "")
  foreach(path IN LISTS arg_CASES)
    get_filename_component(path "${path}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND cases "${path}")
  endforeach()

  # One include script per call, read by ctest from this directory's CTestTestfile.
  get_property(calls DIRECTORY PROPERTY COUNTERGUARD_CASE_TEST_CALLS)
  if(NOT calls)
    set(calls 0)
  endif()
  math(EXPR calls "${calls} + 1")
  set_property(DIRECTORY PROPERTY COUNTERGUARD_CASE_TEST_CALLS ${calls})
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${runner}_case_tests_${calls}.cmake")

  # Bracket arguments keep every value as written (instance filters, paths with spaces).
  set(content "")
  string(APPEND content "set(counterguard_runner [==[$<TARGET_FILE:${runner}>]==])\n")
  string(APPEND content "set(counterguard_cases [==[${cases}]==])\n")
  string(APPEND content "set(counterguard_filter [==[${arg_FILTER}]==])\n")
  string(APPEND content "set(counterguard_resource_groups [==[${arg_RESOURCE_GROUPS}]==])\n")
  string(APPEND content "set(counterguard_labels [==[${arg_LABELS}]==])\n")
  string(APPEND content "set(counterguard_args [==[${arg_ARGS}]==])\n")
  string(APPEND content "set(counterguard_prefix [==[${arg_TEST_PREFIX}]==])\n")
  string(APPEND content "set(counterguard_working_directory [==[${arg_WORKING_DIRECTORY}]==])\n")
  string(APPEND content "set(counterguard_timeout [==[${arg_TIMEOUT}]==])\n")
  string(APPEND content "include([==[${COUNTERGUARD_CASE_TESTS_SCRIPT}]==])\n")
  file(GENERATE OUTPUT "${include_file}" CONTENT "${content}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
