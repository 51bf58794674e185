// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cupti_result.h>

#include <cstddef>

namespace counterguard::detail {

// Throws for a failed CUPTI call. Results that mean "this environment cannot profile" become
// environment_error with advice (privileges, another profiler, running under ncu/nsys); anything else is
// api_error "cuptiCall: CUPTI_ERROR_NAME: message; what to do". Messages name the call, never a source path.
[[noreturn]] void throw_cupti_error(CUptiResult status, const char* call);

// "CUPTI_ERROR_INVALID_PARAMETER" (or the number when CUPTI does not know it).
[[nodiscard]] const char* cupti_result_name(CUptiResult status);

// A CUPTI params struct zeroed (pPriv = NULL, every input unset) with its structSize, the way the CUPTI
// headers ask for; value-initialisation keeps -Wmissing-field-initializers quiet.
template <typename Params>
[[nodiscard]] Params cupti_params(std::size_t struct_size) {
  Params params{};
  params.structSize = struct_size;
  return params;
}

// Throws environment_error(no_gpu) when the CUDA runtime finds no usable device; `detail` says what failed.
[[noreturn]] void throw_no_gpu(const char* detail);

}  // namespace counterguard::detail

// Wraps a CUPTI call; on failure throws (see throw_cupti_error) naming the call.
#define COUNTERGUARD_CUPTI_CHECK(call)                                              \
  do {                                                                              \
    const CUptiResult counterguard_cupti_status_ = (call);                          \
    if (counterguard_cupti_status_ != CUPTI_SUCCESS) {                              \
      ::counterguard::detail::throw_cupti_error(counterguard_cupti_status_, #call); \
    }                                                                               \
  } while (false)

// For destructors and teardown: never throws, reports nothing.
#define COUNTERGUARD_CUPTI_NOTHROW(call) static_cast<void>(call)
