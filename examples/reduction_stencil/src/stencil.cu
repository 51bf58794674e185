#include <algorithm>

#include "reduction_stencil/stencil.hpp"

namespace reduction_stencil {
namespace kernels {

constexpr int window = outputs_per_thread + 2 * stencil_radius;
constexpr float weight = 1.0f / (2 * stencil_radius + 1);

__device__ int clamp_index(int i, int n) {
  return min(max(i, 0), n - 1);
}

__global__ void shared_tile(const float* in, float* out, int n) {
  __shared__ float tile[stencil_block + 2 * stencil_radius];
  const int first = blockIdx.x * stencil_block;
  for (int j = threadIdx.x; j < stencil_block + 2 * stencil_radius; j += stencil_block)
    tile[j] = in[clamp_index(first - stencil_radius + j, n)];
  __syncthreads();
  const int i = first + threadIdx.x;
  if (i >= n)
    return;
  float sum = 0.0f;
  for (int k = 0; k <= 2 * stencil_radius; ++k)
    sum += tile[threadIdx.x + k];
  out[i] = sum * weight;
}

// Each thread computes outputs_per_thread consecutive outputs from a window held in registers.
template <int MinBlocks>
__global__ void __launch_bounds__(stencil_block, MinBlocks)
    register_window(const float* in, float* out, int n) {
  const int first = (blockIdx.x * stencil_block + threadIdx.x) * outputs_per_thread;
  float values[window];
#pragma unroll
  for (int j = 0; j < window; ++j)
    values[j] = in[clamp_index(first - stencil_radius + j, n)];
  float sums[outputs_per_thread];
#pragma unroll
  for (int o = 0; o < outputs_per_thread; ++o) {
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k <= 2 * stencil_radius; ++k)
      sum += values[o + k];
    sums[o] = sum * weight;
  }
#pragma unroll
  for (int o = 0; o < outputs_per_thread; ++o) {
    if (first + o < n)
      out[first + o] = sums[o];
  }
}

unsigned blocks_for(int elements_per_block, int n) {
  return static_cast<unsigned>((n + elements_per_block - 1) / elements_per_block);
}

}  // namespace kernels

void stencil_shared(const float* in, float* out, int n, cudaStream_t stream) {
  kernels::shared_tile<<<kernels::blocks_for(stencil_block, n), stencil_block, 0, stream>>>(in, out, n);
}

void stencil_registers(const float* in, float* out, int n, cudaStream_t stream) {
  kernels::register_window<1>
      <<<kernels::blocks_for(stencil_block * outputs_per_thread, n), stencil_block, 0, stream>>>(in, out, n);
}

void stencil_registers_bounded(const float* in, float* out, int n, cudaStream_t stream) {
  kernels::register_window<8>
      <<<kernels::blocks_for(stencil_block * outputs_per_thread, n), stencil_block, 0, stream>>>(in, out, n);
}

}  // namespace reduction_stencil
// SPDX-License-Identifier: Apache-2.0
