// SPDX-License-Identifier: Apache-2.0
#include "detail/primary_context.hpp"

#include <cuda_runtime_api.h>

#include <string>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/timeline.hpp"
#include "counterguard/cupti/cupti_check.hpp"

namespace counterguard::detail {

void open_primary_context(int device_ordinal) {
  int devices = 0;
  const cudaError_t count_status = cudaGetDeviceCount(&devices);
  if (count_status != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    throw_no_gpu((std::string("cudaGetDeviceCount: ") + cudaGetErrorName(count_status) + ": " +
                  cudaGetErrorString(count_status))
                     .c_str());
  }
  timeline_mark("CUDA driver initialised");
  if (devices == 0)
    throw_no_gpu("cudaGetDeviceCount found 0 devices");
  if (device_ordinal < 0 || device_ordinal >= devices) {
    throw input_error({}, "device", "device " + std::to_string(device_ordinal) + " does not exist",
                      "this machine has devices 0.." + std::to_string(devices - 1));
  }
  COUNTERGUARD_CUDA_CHECK(cudaSetDevice(device_ordinal));
  COUNTERGUARD_CUDA_CHECK(cudaFree(nullptr));
}

}  // namespace counterguard::detail
