// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace counterguard::detail {

// The parameters of CUDA 13's __cudaLaunchKernel(cudaKernel_t, grid, block, args, smem, stream), through
// which
// <<<>>> launches (crt/host_runtime.h). CUPTI publishes no params struct for its callback; this mirrors the
// declaration in crt/device_functions.h (read on the H200 from exec_demo's <<<>>> launches under exec).
struct internal_launch_kernel_params {
  cudaKernel_t kernel;
  dim3 gridDim;
  dim3 blockDim;
  void** args;
  std::size_t sharedMem;
  cudaStream_t stream;
};

}  // namespace counterguard::detail
