// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/cuda_check.hpp"

#include <string>

#include "counterguard/core/error.hpp"

namespace counterguard {

void throw_cuda_error(cudaError_t status, const char* call) {
  // Reading the last error clears it when it is not sticky, so later calls in this context still work.
  static_cast<void>(cudaGetLastError());
  throw api_error(std::string(call) + ": " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status),
                  static_cast<int>(status));
}

}  // namespace counterguard
