# SPDX-License-Identifier: Apache-2.0
# Read by ctest (through TEST_INCLUDE_FILES, see CounterguardCaseTests.cmake): lists the case instances with
# the runner and adds one test per instance. Runs at every ctest start, so the tests follow the suites.
set(counterguard_not_ready "")
if(NOT EXISTS "${counterguard_runner}")
  set(counterguard_not_ready "the runner ${counterguard_runner} is not built yet")
else()
  set(counterguard_list_command "${counterguard_runner}" list ${counterguard_cases} --json -)
  if(NOT counterguard_filter STREQUAL "")
    list(APPEND counterguard_list_command --filter "${counterguard_filter}")
  endif()
  execute_process(COMMAND ${counterguard_list_command}
                  WORKING_DIRECTORY "${counterguard_working_directory}"
                  OUTPUT_VARIABLE counterguard_listed
                  ERROR_VARIABLE counterguard_list_error
                  RESULT_VARIABLE counterguard_list_status)
  if(NOT counterguard_list_status EQUAL 0)
    set(counterguard_not_ready "`counterguard list` failed (${counterguard_list_status}): ${counterguard_list_error}")
  endif()
endif()

if(NOT counterguard_not_ready STREQUAL "")
  # One failing test says why, instead of silently registering nothing.
  string(MAKE_C_IDENTIFIER "${counterguard_runner}" counterguard_id)
  add_test("${counterguard_prefix}counterguard_case_tests_unavailable_${counterguard_id}"
           "${CMAKE_COMMAND}" -E echo "counterguard_add_case_tests: ${counterguard_not_ready}")
  set_tests_properties("${counterguard_prefix}counterguard_case_tests_unavailable_${counterguard_id}"
                       PROPERTIES WILL_FAIL TRUE LABELS "gpu")
  return()
endif()

string(JSON counterguard_count LENGTH "${counterguard_listed}")
if(counterguard_count GREATER 0)
  math(EXPR counterguard_last "${counterguard_count} - 1")
  foreach(counterguard_index RANGE ${counterguard_last})
    string(JSON counterguard_instance GET "${counterguard_listed}" ${counterguard_index} instance)
    string(JSON counterguard_suite GET "${counterguard_listed}" ${counterguard_index} suite)
    string(JSON counterguard_file GET "${counterguard_listed}" ${counterguard_index} file)
    set(counterguard_test "${counterguard_prefix}${counterguard_instance}")
    add_test("${counterguard_test}" "${counterguard_runner}" run "${counterguard_file}"
             --filter "${counterguard_instance}" --require-gpu --quiet ${counterguard_args})
    set(counterguard_test_labels gpu "${counterguard_suite}" ${counterguard_labels})
    set_tests_properties("${counterguard_test}" PROPERTIES
                         LABELS "${counterguard_test_labels}"
                         WORKING_DIRECTORY "${counterguard_working_directory}")
    if(NOT counterguard_resource_groups STREQUAL "")
      set_tests_properties("${counterguard_test}" PROPERTIES RESOURCE_GROUPS "${counterguard_resource_groups}")
    endif()
    if(NOT counterguard_timeout STREQUAL "")
      set_tests_properties("${counterguard_test}" PROPERTIES TIMEOUT "${counterguard_timeout}")
    endif()
  endforeach()
endif()
