// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda_runtime_api.h>

#include <string>

namespace counterguard {

// Throws api_error "call: cudaErrorName: message" (no source path: users see it) and clears a non-sticky
// error. What COUNTERGUARD_CUDA_CHECK calls on a failure; `call` is the failing call as text.
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call);

}  // namespace counterguard

// Wraps a CUDA runtime call; on failure throws counterguard::api_error naming the call.
#define COUNTERGUARD_CUDA_CHECK(call)                                \
  do {                                                               \
    const cudaError_t counterguard_status_ = (call);                 \
    if (counterguard_status_ != cudaSuccess) {                       \
      ::counterguard::throw_cuda_error(counterguard_status_, #call); \
    }                                                                \
  } while (false)

// For destructors: reports nothing and never throws.
#define COUNTERGUARD_CUDA_NOTHROW(call) static_cast<void>(call)
