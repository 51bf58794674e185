#include "reduction_stencil/reduction.hpp"

namespace reduction_stencil {
namespace kernels {

__global__ void interleaved(const float* in, float* partial, int n) {
  __shared__ float sums[block_size];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * block_size + t;
  sums[t] = i < static_cast<unsigned>(n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < block_size; s *= 2) {
    const unsigned index = 2 * s * t;
    if (index < block_size)
      sums[index] += sums[index + s];
    __syncthreads();
  }
  if (t == 0)
    partial[blockIdx.x] = sums[0];
}

// Where partial sum j lives in shared memory. A planted regression (REDUCTION_STENCIL_PLANT_BANK_CONFLICTS,
// for counterguard's validation only) relabels the slots so that neighbouring lanes are two words apart: the
// sums stay right, the warp's accesses collide in banks.
__device__ unsigned slot(unsigned j) {
#ifdef REDUCTION_STENCIL_PLANT_BANK_CONFLICTS
  return (2 * j) % block_size + (2 * j) / block_size;
#else
  return j;
#endif
}

__global__ void sequential(const float* in, float* partial, int n) {
  __shared__ float sums[block_size];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * block_size + t;
  sums[slot(t)] = i < static_cast<unsigned>(n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = block_size / 2; s > 0; s /= 2) {
    if (t < s)
      sums[slot(t)] += sums[slot(t + s)];
    __syncthreads();
  }
  if (t == 0)
    partial[blockIdx.x] = sums[slot(0)];
}

__global__ void warp_shuffle(const float* in, float* partial, int n) {
  __shared__ float warp_sums[block_size / 32];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * block_size + t;
  float value = i < static_cast<unsigned>(n) ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_down_sync(0xffffffffU, value, offset);
  if (t % 32 == 0)
    warp_sums[t / 32] = value;
  __syncthreads();
  if (t < 32) {
    value = t < block_size / 32 ? warp_sums[t] : 0.0f;
    for (int offset = 4; offset > 0; offset /= 2)
      value += __shfl_down_sync(0xffffffffU, value, offset);
    if (t == 0)
      partial[blockIdx.x] = value;
  }
}

unsigned blocks_for(int n) {
  return static_cast<unsigned>((n + block_size - 1) / block_size);
}

}  // namespace kernels

void reduce_interleaved(const float* in, float* partial, int n, cudaStream_t stream) {
  kernels::interleaved<<<kernels::blocks_for(n), block_size, 0, stream>>>(in, partial, n);
}

void reduce_sequential(const float* in, float* partial, int n, cudaStream_t stream) {
  kernels::sequential<<<kernels::blocks_for(n), block_size, 0, stream>>>(in, partial, n);
}

void reduce_warp_shuffle(const float* in, float* partial, int n, cudaStream_t stream) {
  kernels::warp_shuffle<<<kernels::blocks_for(n), block_size, 0, stream>>>(in, partial, n);
}

}  // namespace reduction_stencil
// SPDX-License-Identifier: Apache-2.0
