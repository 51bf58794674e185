# Functions for building kernel variants and runners. The built-in kernels use them, and so do users'
# own CMake targets: nothing here is private to the built-ins.
#
#   counterguard_add_kernels(<name> SOURCES <.cu files...> [OPTIONS <nvcc flags...>]
#                            [DEFINITIONS <defines...>] [LINK <libraries...>])
#     An object library of kernel variants. Each source is compiled through a launcher that keeps
#     nvcc's resource report (registers, spills, stack, shared memory) for `counterguard static`.
#     A source compiled with other flags (e.g. -maxrregcount=32) in another counterguard_add_kernels
#     is a distinct variant: give it a DEFINITIONS entry that changes its namespace.
#
#   counterguard_add_runner(<name> KERNELS <kernel libraries...>)
#     An executable with the counterguard command line and the given kernel libraries registered.
#
#   counterguard_link_kernels(<target> KERNELS <kernel libraries...>)
#     Links kernel libraries and their compiler reports into any executable (a test, say).

set(COUNTERGUARD_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL "")

function(counterguard_add_kernels name)
  cmake_parse_arguments(arg "" "" "SOURCES;OPTIONS;DEFINITIONS;LINK" ${ARGN})
  add_library(${name} OBJECT ${arg_SOURCES})
  target_link_libraries(${name} PUBLIC counterguard::harness PRIVATE counterguard::build_interface ${arg_LINK})
  target_compile_options(${name} PRIVATE ${arg_OPTIONS})
  target_compile_definitions(${name} PRIVATE ${arg_DEFINITIONS})
  set_target_properties(${name} PROPERTIES
    CUDA_COMPILER_LAUNCHER "${COUNTERGUARD_CMAKE_DIR}/nvcc_resource_usage_launcher.sh"
    CUDA_SEPARABLE_COMPILATION OFF
    POSITION_INDEPENDENT_CODE ON)
endfunction()

function(counterguard_add_runner name)
  cmake_parse_arguments(arg "" "" "KERNELS" ${ARGN})
  add_executable(${name})
  counterguard_link_kernels(${name} KERNELS ${arg_KERNELS})
  target_link_libraries(${name} PRIVATE counterguard::main counterguard::build_interface)
  counterguard_bundle_runtime_libraries(${name})
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
  target_link_libraries(${target} PRIVATE ${arg_KERNELS})
endfunction()

# Copies the shared libraries that a GPU host may lack (Debian's muparser, yaml-cpp) next to the binary, so the
# build folder can be carried there and run unchanged (its RPATH includes $ORIGIN/lib).
function(counterguard_bundle_runtime_libraries name)
  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E make_directory "$<TARGET_FILE_DIR:${name}>/lib"
    COMMAND ${CMAKE_COMMAND} -E copy_if_different "$<TARGET_FILE:muparser::muparser>"
            "$<TARGET_FILE_DIR:${name}>/lib/$<TARGET_SONAME_FILE_NAME:muparser::muparser>"
    COMMAND ${CMAKE_COMMAND} -E copy_if_different "$<TARGET_FILE:yaml-cpp>"
            "$<TARGET_FILE_DIR:${name}>/lib/$<TARGET_SONAME_FILE_NAME:yaml-cpp>"
    VERBATIM)
endfunction()
