# SPDX-License-Identifier: Apache-2.0
# Functions for building kernel variants and runners. The built-in kernels use them, and so do users' own
# CMake projects (after find_package(counterguard) or add_subdirectory): nothing here is private to the
# built-ins, and nothing here reaches into the caller's directory scope.
#
#   counterguard_add_kernels(<name> SOURCES <.cu files...> [CUDA_ARCHITECTURES <archs...>]
#                            [OPTIONS <nvcc flags...>] [DEFINITIONS <defines...>] [LINK <libraries...>])
#     An object library of kernel variants, compiled for CUDA_ARCHITECTURES (default
#     COUNTERGUARD_CUDA_ARCHITECTURES, "90") with -lineinfo. Each source goes through a launcher that keeps
#     nvcc's resource report (registers, spills, stack, shared memory) per architecture, so the static report
#     describes exactly what was compiled. A source compiled with other flags (e.g. -maxrregcount=32) in another
#     counterguard_add_kernels is a distinct variant: give it a DEFINITIONS entry that changes its namespace.
#
#   counterguard_add_runner(<name> [KERNELS <kernel libraries...>] [SOURCES <files...>] [LINK <libraries...>])
#     An executable with the counterguard command line and the kernel variants registered by the KERNELS
#     libraries and the SOURCES (e.g. a file of COUNTERGUARD_KERNEL registrations), linked with LINK (your own
#     CUDA library, built as usual: the static report of its kernels is read from the runner's own cubins).
#
#   counterguard_link_kernels(<target> KERNELS <kernel libraries...>)
#     Links kernel libraries and their compiler reports into any executable (a GoogleTest binary, say).
#
#   counterguard_bundle_runtime_libraries(<target>)
#     Copies the shared libraries a GPU host may lack (muparser, yaml-cpp, ...) next to an executable, in lib/,
#     and points its build RPATH there, so its build folder can be carried to a GPU host and run unchanged.
#
# In counterguard's own build (and with add_subdirectory or FetchContent) kernels and runners link its area
# libraries; after find_package(counterguard) they link the package's one library, counterguard::counterguard.

set(COUNTERGUARD_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL "counterguard's CMake modules and scripts")
set(COUNTERGUARD_CUDA_ARCHITECTURES "90" CACHE STRING
    "Real CUDA architectures counterguard kernels are compiled for and the static report describes (e.g. 90, or 80;90)")

# The library target that provides one area's API: the area itself in a source build, the package's library
# after find_package.
function(_counterguard_area_target out area)
  if(TARGET counterguard::${area})
    set(${out} counterguard::${area} PARENT_SCOPE)
  else()
    set(${out} counterguard::counterguard PARENT_SCOPE)
  endif()
endfunction()

# The architectures a kernel library is built for. Each must be a real architecture (90, 90a, 80-real): the
# static report needs the compiler's machine code, which a PTX-only (-virtual) target does not have.
function(_counterguard_check_architectures name architectures)
  if(NOT architectures)
    message(FATAL_ERROR "counterguard_add_kernels(${name}): no CUDA architectures; set CUDA_ARCHITECTURES or "
                        "COUNTERGUARD_CUDA_ARCHITECTURES (e.g. 90)")
  endif()
  foreach(architecture IN LISTS architectures)
    if(NOT architecture MATCHES "^[0-9]+[af]?(-real)?$")
      message(FATAL_ERROR "counterguard_add_kernels(${name}): CUDA architecture '${architecture}' gives no "
                          "compiler resource report; use real architectures such as 90, 90a or 80-real (the "
                          "static report describes the machine code of each)")
    endif()
  endforeach()
endfunction()

function(counterguard_add_kernels name)
  cmake_parse_arguments(arg "" "" "SOURCES;CUDA_ARCHITECTURES;OPTIONS;DEFINITIONS;LINK" ${ARGN})
  set(architectures ${arg_CUDA_ARCHITECTURES})
  if(NOT architectures)
    set(architectures ${COUNTERGUARD_CUDA_ARCHITECTURES})
  endif()
  _counterguard_check_architectures(${name} "${architectures}")
  add_library(${name} OBJECT ${arg_SOURCES})
  _counterguard_area_target(registry registry)
  target_link_libraries(${name} PUBLIC ${registry} PRIVATE ${arg_LINK})
  # -lineinfo maps instructions to source lines for ncu and blame; it changes no machine code.
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo> ${arg_OPTIONS})
  target_compile_definitions(${name} PRIVATE ${arg_DEFINITIONS})
  set_target_properties(${name} PROPERTIES
    CUDA_ARCHITECTURES "${architectures}"
    CUDA_STANDARD 17
    CUDA_STANDARD_REQUIRED ON
    CUDA_COMPILER_LAUNCHER "${COUNTERGUARD_CMAKE_DIR}/nvcc_resource_usage_launcher.sh"
    CUDA_SEPARABLE_COMPILATION OFF
    POSITION_INDEPENDENT_CODE ON)
endfunction()

function(counterguard_add_runner name)
  cmake_parse_arguments(arg "" "" "KERNELS;SOURCES;LINK" ${ARGN})
  add_executable(${name} ${arg_SOURCES})
  counterguard_link_kernels(${name} KERNELS ${arg_KERNELS})
  target_link_libraries(${name} PRIVATE counterguard::main ${arg_LINK})
  if(arg_SOURCES)
    # Registration sources launch kernels: the same architectures and line information as kernel libraries.
    set_target_properties(${name} PROPERTIES CUDA_ARCHITECTURES "${COUNTERGUARD_CUDA_ARCHITECTURES}")
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  endif()
  counterguard_bundle_runtime_libraries(${name})
  # `<runner> exec` loads the injection library into programs; the runner looks for it in its lib/ folder.
  # A copy of its own, refreshed whenever the library is rebuilt (not only when the runner relinks).
  if(TARGET counterguard::injection)
    get_target_property(directory ${name} RUNTIME_OUTPUT_DIRECTORY)
    if(NOT directory)
      set(directory "${CMAKE_CURRENT_BINARY_DIR}")
    endif()
    set(copy "${directory}/lib/libcounterguard_injection.so")
    add_custom_command(OUTPUT "${copy}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${directory}/lib"
      COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:counterguard::injection> "${copy}"
      DEPENDS counterguard::injection $<TARGET_FILE:counterguard::injection>
      VERBATIM)
    add_custom_target(${name}_injection_copy ALL DEPENDS "${copy}")
    add_dependencies(${name} ${name}_injection_copy)
    # An installed package's injection library finds CUPTI in cupti/ beside it (the copy bundled with the tool):
    # the runner's copy sees the same folder.
    if(COUNTERGUARD_PACKAGE_CUPTI_DIR AND NOT EXISTS "${directory}/lib/cupti")
      file(MAKE_DIRECTORY "${directory}/lib")
      file(CREATE_LINK "${COUNTERGUARD_PACKAGE_CUPTI_DIR}" "${directory}/lib/cupti" SYMBOLIC)
    endif()
  endif()
endfunction()

# Links kernel libraries into an executable together with their embedded compiler resource reports.
function(counterguard_link_kernels target)
  cmake_parse_arguments(arg "" "" "KERNELS" ${ARGN})
  set(object_list "${CMAKE_CURRENT_BINARY_DIR}/${target}_kernel_objects.txt")
  set(generated "${CMAKE_CURRENT_BINARY_DIR}/${target}_resource_reports.cpp")
  set(objects "")
  foreach(library IN LISTS arg_KERNELS)
    list(APPEND objects "$<TARGET_OBJECTS:${library}>")
  endforeach()
  file(GENERATE OUTPUT "${object_list}" CONTENT "$<JOIN:${objects},\n>\n")
  add_custom_command(
    OUTPUT "${generated}"
    COMMAND ${CMAKE_COMMAND} -DOBJECT_LIST=${object_list} -DOUTPUT=${generated}
            -P "${COUNTERGUARD_CMAKE_DIR}/embed_resource_reports.cmake"
    DEPENDS ${objects} "${COUNTERGUARD_CMAKE_DIR}/embed_resource_reports.cmake"
    COMMENT "Embedding kernel resource reports into ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE "${generated}")
  _counterguard_area_target(statics statics)
  target_link_libraries(${target} PRIVATE ${statics} ${arg_KERNELS})
endfunction()

function(counterguard_bundle_runtime_libraries name)
  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DEXECUTABLE=$<TARGET_FILE:${name}> -DDESTINATION=$<TARGET_FILE_DIR:${name}>/lib
            -P "${COUNTERGUARD_CMAKE_DIR}/bundle_runtime_libraries.cmake"
    VERBATIM)
  # $ORIGIN/lib first: the bundled copies. Then CUPTI in the toolkit this build uses, in each place a CUDA
  # installation keeps it (lib64, extras/CUPTI/lib64): a GPU host with the toolkit at the same path but
  # installed another way still finds it (CMake adds only the folder CUPTI was found in here).
  get_filename_component(toolkit_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
  set_property(TARGET ${name} APPEND PROPERTY BUILD_RPATH
               "\$ORIGIN/lib" "${toolkit_root}/lib64" "${toolkit_root}/extras/CUPTI/lib64")
endfunction()
