// A plain cuBLAS program: SGEMM through the runtime API, inside an NVTX range, checked against the host.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                          \
  do {                                                                       \
    if ((call) != 0) {                                                       \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #call); \
      return 2;                                                              \
    }                                                                        \
  } while (0)

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  std::vector<float> a(static_cast<std::size_t>(n) * n), b(a.size()), c(a.size(), 0.0f);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>((i * 7) % 13) / 13.0f;
    b[i] = static_cast<float>((i * 5) % 11) / 11.0f;
  }
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  const std::size_t bytes = a.size() * sizeof(float);
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
  cublasHandle_t handle = nullptr;
  CHECK(cublasCreate(&handle));
  const float alpha = 1.0f, beta = 0.0f;
  for (int r = 0; r < repeats; ++r) {
    nvtxRangePushA("gemm");
    CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, da, n, db, n, &beta, dc, n));
    nvtxRangePop();
  }
  CHECK(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));
  // Column-major: C(i, j) = sum_k A(i, k) B(k, j); a few entries checked in double.
  double worst = 0.0;
  for (int probe = 0; probe < 64; ++probe) {
    const int i = (probe * 37) % n, j = (probe * 91) % n;
    double expected = 0.0;
    for (int k = 0; k < n; ++k)
      expected += static_cast<double>(a[static_cast<std::size_t>(k) * n + i]) *
                  b[static_cast<std::size_t>(j) * n + k];
    worst = std::fmax(
        worst, std::fabs(expected - c[static_cast<std::size_t>(j) * n + i]) / (std::fabs(expected) + 1.0));
  }
  cublasDestroy(handle);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  const bool ok = worst < 1e-3;
  std::printf("cublas_sgemm: n=%d worst relative error %.2e %s\n", n, worst, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
// SPDX-License-Identifier: Apache-2.0
