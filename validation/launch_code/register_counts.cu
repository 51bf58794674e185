// SPDX-License-Identifier: Apache-2.0
// Kernels at several register counts (N live accumulators each, and the same under register limits), with
// the driver's count for each: what validation/launch_code_checks.sh compares with ncu's
// launch__registers_per_thread and the other launch__ metrics.
#include <cuda_runtime.h>

#include <cstdio>

template <int N>
__global__ void accumulators(const float* __restrict__ in, float* __restrict__ out, int n) {
  // N values loaded before any is used: each stays live in its own register.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[N > 0 ? N : 1];
#pragma unroll
  for (int k = 0; k < N; ++k)
    acc[k] = in[i + k * 64];
  float product = 1.0f;
#pragma unroll
  for (int k = 0; k < N; ++k)
    product = product * acc[k] + acc[N - 1 - k];
  out[i] = N > 0 ? product : in[i];
}

__global__ void store_one(float* out) {
  out[threadIdx.x] = 1.0f;
}

__global__ void copy(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

// The same work under a register limit: __launch_bounds__ with many blocks per SM makes ptxas keep fewer.
template <int N>
__global__ void __launch_bounds__(256, 8) bounded(const float* in, float* out, int n) {
  float acc[N];
#pragma unroll
  for (int k = 0; k < N; ++k)
    acc[k] = in[(threadIdx.x + k * 37) % n];
  float sum = 0.0f;
  for (int j = 0; j < n; j += 64) {
#pragma unroll
    for (int k = 0; k < N; ++k)
      acc[k] = acc[k] * in[(j + k) % n] + 1.0f;
  }
#pragma unroll
  for (int k = 0; k < N; ++k)
    sum += acc[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

template <typename Kernel>
void run(const char* name, Kernel kernel, const float* in, float* out, int n, int threads) {
  cudaFuncAttributes a{};
  cudaFuncGetAttributes(&a, kernel);
  int blocks_per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, threads, 0);
  std::printf("%s regs=%d local=%zu shared=%zu const=%zu max_threads=%d blocks_per_sm=%d\n", name, a.numRegs,
              a.localSizeBytes, a.sharedSizeBytes, a.constSizeBytes, a.maxThreadsPerBlock, blocks_per_sm);
  kernel<<<n / threads, threads>>>(in, out, n);
}

int main() {
  const int n = 1 << 16;
  float* in = nullptr;
  float* out = nullptr;
  cudaMalloc(&in, (n + 4096) * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, (n + 4096) * sizeof(float));
  {
    cudaFuncAttributes a{};
    cudaFuncGetAttributes(&a, store_one);
    std::printf("store_one regs=%d local=%zu shared=%zu const=%zu max_threads=%d blocks_per_sm=0\n",
                a.numRegs, a.localSizeBytes, a.sharedSizeBytes, a.constSizeBytes, a.maxThreadsPerBlock);
    store_one<<<1, 32>>>(out);
  }
  run("copy", copy, in, out, n, 256);
  run("accumulators<0>", accumulators<0>, in, out, n, 256);
  run("accumulators<1>", accumulators<1>, in, out, n, 256);
  run("accumulators<2>", accumulators<2>, in, out, n, 256);
  run("accumulators<3>", accumulators<3>, in, out, n, 256);
  run("accumulators<4>", accumulators<4>, in, out, n, 256);
  run("accumulators<5>", accumulators<5>, in, out, n, 256);
  run("accumulators<6>", accumulators<6>, in, out, n, 256);
  run("accumulators<7>", accumulators<7>, in, out, n, 256);
  run("accumulators<8>", accumulators<8>, in, out, n, 128);
  run("accumulators<9>", accumulators<9>, in, out, n, 128);
  run("accumulators<10>", accumulators<10>, in, out, n, 128);
  run("accumulators<12>", accumulators<12>, in, out, n, 128);
  run("accumulators<16>", accumulators<16>, in, out, n, 128);
  run("accumulators<20>", accumulators<20>, in, out, n, 128);
  run("accumulators<24>", accumulators<24>, in, out, n, 64);
  run("accumulators<28>", accumulators<28>, in, out, n, 64);
  run("accumulators<32>", accumulators<32>, in, out, n, 64);
  run("accumulators<48>", accumulators<48>, in, out, n, 64);
  run("bounded<24>", bounded<24>, in, out, n, 256);
  run("bounded<48>", bounded<48>, in, out, n, 256);
  cudaDeviceSynchronize();
  std::printf("status %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
