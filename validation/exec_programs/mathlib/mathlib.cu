// SPDX-License-Identifier: Apache-2.0
#include "mathlib.cuh"

namespace mathlib {
namespace {

constexpr int tile = 32;
// The shared tile is padded by one column so that a warp reading a column hits 32 different banks.
// MATHLIB_SMALL_TILE drops the padding (saves 128 bytes of shared memory per block).
#ifdef MATHLIB_SMALL_TILE
constexpr int tile_pitch = tile;
#else
constexpr int tile_pitch = tile + 1;
#endif

__global__ void transpose_tiled(float* out, const float* in, int n) {
  __shared__ float buffer[tile][tile_pitch];
  const int x = blockIdx.x * tile + threadIdx.x;
  for (int row = threadIdx.y; row < tile; row += blockDim.y)
    buffer[row][threadIdx.x] = in[(blockIdx.y * tile + row) * n + x];
  __syncthreads();
  const int tx = blockIdx.y * tile + threadIdx.x;
  for (int row = threadIdx.y; row < tile; row += blockDim.y)
    out[(blockIdx.x * tile + row) * n + tx] = buffer[threadIdx.x][row];
}

__global__ void reduce_block_sum(float* sum, const float* in, int n) {
  __shared__ float partial[256];
  float value = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    value += in[i];
  partial[threadIdx.x] = value;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(sum, partial[0]);
}

}  // namespace

cudaError_t transpose(float* out, const float* in, int n, cudaStream_t stream) {
  transpose_tiled<<<dim3(n / tile, n / tile), dim3(tile, 8), 0, stream>>>(out, in, n);
  return cudaGetLastError();
}

cudaError_t reduce_sum(float* sum, const float* in, int n, cudaStream_t stream) {
  reduce_block_sum<<<264, 256, 0, stream>>>(sum, in, n);
  return cudaGetLastError();
}

}  // namespace mathlib
