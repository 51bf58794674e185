# SPDX-License-Identifier: Apache-2.0
# counterguard_build_interface: the warning flags every counterguard target builds with.
# Warnings are errors (COUNTERGUARD_WARNINGS_AS_ERRORS) so that CI rejects them.
add_library(counterguard_build_interface INTERFACE)
add_library(counterguard::build_interface ALIAS counterguard_build_interface)
target_compile_options(counterguard_build_interface INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --extended-lambda>)
if(COUNTERGUARD_WARNINGS_AS_ERRORS)
  target_compile_options(counterguard_build_interface INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>)
endif()
