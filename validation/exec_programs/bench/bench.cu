// SPDX-License-Identifier: Apache-2.0
// A command-line benchmark: runs the kernel variants named on the command line, each in a loop of launches,
// and prints the time per launch.
//   bench VARIANT[,VARIANT...] [--iters N] [--n ELEMENTS] [--stride S]
// Variants: saxpy (y = a*x + y; --stride reads x with that stride), stencil (a 1-D 17-point stencil).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

#define CHECK(call)                                                                                   \
  do {                                                                                                \
    const cudaError_t status = (call);                                                                \
    if (status != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status)); \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

__global__ void saxpy(float* y, const float* x, float a, int n, int stride) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[(static_cast<long long>(i) * stride) % n] + y[i];
}

constexpr int radius = 8;

// Each thread keeps its window and the weights in registers.
__global__ void stencil(float* out, const float* in, const float* weights, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x + radius;
  if (i >= n - radius)
    return;
  float w[2 * radius + 1];
  float v[2 * radius + 1];
#pragma unroll
  for (int k = 0; k <= 2 * radius; ++k) {
    w[k] = weights[k];
    v[k] = in[i - radius + k];
  }
  float sum = 0.0f;
  float cross = 0.0f;
#pragma unroll
  for (int j = 0; j <= 2 * radius; ++j) {
    sum += w[j] * v[j];
#pragma unroll
    for (int k = j + 1; k <= 2 * radius; ++k)
      cross += w[j] * w[k] * v[j] * v[k] / (1.0f + v[j] * v[k]);
  }
  out[i] = sum / (1.0f + sqrtf(fabsf(cross)));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench VARIANT[,VARIANT...] [--iters N] [--n ELEMENTS] [--stride S]\n");
    return 2;
  }
  std::vector<std::string> variants;
  std::stringstream list(argv[1]);
  for (std::string v; std::getline(list, v, ',');)
    variants.push_back(v);
  int iters = 5000;
  int n = 1 << 20;
  int stride = 1;
  for (int a = 2; a + 1 < argc; a += 2) {
    if (std::strcmp(argv[a], "--iters") == 0)
      iters = std::atoi(argv[a + 1]);
    else if (std::strcmp(argv[a], "--n") == 0)
      n = std::atoi(argv[a + 1]);
    else if (std::strcmp(argv[a], "--stride") == 0)
      stride = std::atoi(argv[a + 1]);
  }
  float *x, *y, *weights;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&weights, (2 * radius + 1) * sizeof(float)));
  CHECK(cudaMemset(x, 0, n * sizeof(float)));
  CHECK(cudaMemset(y, 0, n * sizeof(float)));
  CHECK(cudaMemset(weights, 0, (2 * radius + 1) * sizeof(float)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const int block = 256;
  const int grid = (n + block - 1) / block;
  for (const auto& variant : variants) {
    CHECK(cudaEventRecord(start));
    for (int it = 0; it < iters; ++it) {
      if (variant == "saxpy") {
        saxpy<<<grid, block>>>(y, x, 2.0f, n, stride);
      } else if (variant == "stencil") {
        stencil<<<grid, block>>>(y, x, weights, n);
      } else {
        std::fprintf(stderr, "unknown variant '%s' (saxpy, stencil)\n", variant.c_str());
        return 2;
      }
    }
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    std::printf("%-8s %d launches, %.2f us per launch\n", variant.c_str(), iters, 1000.0 * ms / iters);
  }
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(weights));
  return 0;
}
