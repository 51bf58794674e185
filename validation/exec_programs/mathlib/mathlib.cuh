// SPDX-License-Identifier: Apache-2.0
// A small CUDA library: a tiled matrix transpose and a sum reduction.
#pragma once

#include <cuda_runtime.h>

namespace mathlib {

// out = in^T for an n x n row-major matrix (n a multiple of 32).
cudaError_t transpose(float* out, const float* in, int n, cudaStream_t stream = nullptr);

// *sum += the sum of in[0..n).
cudaError_t reduce_sum(float* sum, const float* in, int n, cudaStream_t stream = nullptr);

}  // namespace mathlib
