# SPDX-License-Identifier: Apache-2.0
# CPU tests of the Python package (label cpu): it imports, the plugin's own tests run (pytester: skips, the
# marker's expectations and formulas, baselines and reports on recorded H200 counters), and the two ways it is
# installed work (pip from the build tree, cmake --install) with pytest loading the plugin by itself.
# The interpreter: COUNTERGUARD_PYTHON, else the first python3 that has pytest (Debian: python3-pytest).
if(NOT COUNTERGUARD_PYTHON)
  find_package(Python3 COMPONENTS Interpreter)
  foreach(candidate IN ITEMS "${Python3_EXECUTABLE}" /usr/bin/python3)
    if(candidate)
      execute_process(COMMAND "${candidate}" -c "import pytest" RESULT_VARIABLE missing OUTPUT_QUIET ERROR_QUIET)
      if(missing EQUAL 0)
        set(COUNTERGUARD_PYTHON "${candidate}" CACHE FILEPATH "python3 that runs the Python package's tests")
        break()
      endif()
    endif()
  endforeach()
endif()
if(NOT COUNTERGUARD_PYTHON)
  # The tests still exist, and fail saying what is missing.
  set(COUNTERGUARD_PYTHON "python3-with-pytest-not-found(install python3-pytest, tools/setup.sh)")
endif()

set(python_environment "PYTHONPATH=${PROJECT_BINARY_DIR}/python" "COUNTERGUARD_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
                       "PYTHONDONTWRITEBYTECODE=1")
add_test(NAME python.package_imports
         COMMAND "${COUNTERGUARD_PYTHON}" -c
                 "import counterguard, counterguard.pytest_plugin as p; assert counterguard.__version__ == '${PROJECT_VERSION}', counterguard.__version__; print(counterguard.__file__)")
add_test(NAME python.plugin_tests
         COMMAND "${COUNTERGUARD_PYTHON}" -m pytest -p pytester -q -rs "${CMAKE_CURRENT_SOURCE_DIR}/tests"
                 --ignore=${CMAKE_CURRENT_SOURCE_DIR}/tests/test_wheel.py
                 -o cache_dir=${PROJECT_BINARY_DIR}/python-tests/pytest-cache)
add_test(NAME python.installs_with_pip_and_cmake
         COMMAND "${CMAKE_CURRENT_SOURCE_DIR}/tests/test_installs.sh" "${COUNTERGUARD_PYTHON}" "${PROJECT_BINARY_DIR}"
                 "${PROJECT_BINARY_DIR}/python-tests/installs" "${COUNTERGUARD_PYTHON_INSTALL_DIR}")
set_tests_properties(python.package_imports python.plugin_tests python.installs_with_pip_and_cmake PROPERTIES
  ENVIRONMENT "${python_environment}" LABELS "cpu;python" TIMEOUT 600)

# The wheel (cmake/CounterguardWheel.cmake): built once for the tests that read it; its files, run paths, libraries
# and platform tag checked with readelf; then installed with pip into a fresh virtual environment of a Python
# that is not Debian's and used with counterguard's library packages hidden (skipped only where this machine has
# no such Python).
if(COUNTERGUARD_INSTALL AND COUNTERGUARD_BUILD_TOOL)
  add_test(NAME python.wheel_builds COMMAND "${CMAKE_COMMAND}" --build "${PROJECT_BINARY_DIR}" --target wheel)
  add_test(NAME python.wheel_contents
           COMMAND "${COUNTERGUARD_PYTHON}" -m pytest -q -p no:cacheprovider "${CMAKE_CURRENT_SOURCE_DIR}/tests/test_wheel.py")
  add_test(NAME python.wheel_installs_in_a_venv
           COMMAND "${CMAKE_CURRENT_SOURCE_DIR}/tests/test_wheel_installs.sh" "${PROJECT_BINARY_DIR}"
                   "${PROJECT_BINARY_DIR}/python-tests/wheel-venv")
  set_tests_properties(python.wheel_builds PROPERTIES FIXTURES_SETUP counterguard_wheel LABELS "cpu;python" TIMEOUT 600)
  set_tests_properties(python.wheel_contents python.wheel_installs_in_a_venv PROPERTIES
    FIXTURES_REQUIRED counterguard_wheel LABELS "cpu;python" TIMEOUT 600
    ENVIRONMENT "COUNTERGUARD_WHEEL_DIR=${PROJECT_BINARY_DIR}/dist;COUNTERGUARD_SOURCE_DIR=${PROJECT_SOURCE_DIR};PYTHONDONTWRITEBYTECODE=1")
  set_tests_properties(python.wheel_installs_in_a_venv PROPERTIES SKIP_RETURN_CODE 77)
endif()
