// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda.h>

#include <string>

#include "counterguard/core/error.hpp"

namespace counterguard::injection {

// Throws api_error for a failed driver call: "cuCtxGetDevice: CUDA_ERROR_INVALID_CONTEXT".
inline void check_driver(CUresult status, const char* call) {
  if (status == CUDA_SUCCESS)
    return;
  const char* name = nullptr;
  if (cuGetErrorName(status, &name) != CUDA_SUCCESS || name == nullptr)
    name = "CUDA_ERROR_(unknown)";
  throw api_error(std::string(call) + ": " + name, static_cast<int>(status));
}

}  // namespace counterguard::injection
