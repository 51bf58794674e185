# `cmake --install` gives a relocatable package: find_package(counterguard 0.2 CONFIG REQUIRED) then provides
# counterguard::<area> libraries, counterguard::main (the command line), counterguard::gtest (when built) and
# the counterguard_* functions (CounterguardKernels.cmake).
include(CMakePackageConfigHelpers)
set(COUNTERGUARD_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/counterguard")

get_property(area_targets GLOBAL PROPERTY COUNTERGUARD_AREA_TARGETS)
install(TARGETS ${area_targets} counterguard_harness EXPORT counterguardTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY harness/include/counterguard DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES "${COUNTERGUARD_AREA_INCLUDE_DIR}/generated/counterguard/build_info.hpp"
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/counterguard)
# `counterguard exec` loads it into programs: the installed tool finds it in <libdir>/counterguard.
install(TARGETS counterguard_injection EXPORT counterguardTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/counterguard)
install(EXPORT counterguardTargets NAMESPACE counterguard:: DESTINATION ${COUNTERGUARD_INSTALL_CMAKEDIR})

if(TARGET counterguard)
  # The tool finds the bundled libraries through $ORIGIN/../lib/counterguard, CUPTI in the toolkit.
  set_target_properties(counterguard PROPERTIES
    INSTALL_RPATH "\$ORIGIN/../${CMAKE_INSTALL_LIBDIR}/counterguard;${CUDAToolkit_LIBRARY_DIR}")
  install(TARGETS counterguard RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

configure_package_config_file(cmake/counterguardConfig.cmake.in
  "${CMAKE_CURRENT_BINARY_DIR}/counterguardConfig.cmake" INSTALL_DESTINATION ${COUNTERGUARD_INSTALL_CMAKEDIR})
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/counterguardConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${CMAKE_CURRENT_BINARY_DIR}/counterguardConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/counterguardConfigVersion.cmake"
  cmake/CounterguardDependencies.cmake
  cmake/CounterguardKernels.cmake
  cmake/CounterguardCaseTests.cmake
  cmake/counterguard_case_tests_discovery.cmake
  cmake/FindCUPTIProfilerHost.cmake
  cmake/embed_resource_reports.cmake
  cmake/bundle_runtime_libraries.cmake
  DESTINATION ${COUNTERGUARD_INSTALL_CMAKEDIR})
install(PROGRAMS cmake/nvcc_resource_usage_launcher.sh DESTINATION ${COUNTERGUARD_INSTALL_CMAKEDIR})
