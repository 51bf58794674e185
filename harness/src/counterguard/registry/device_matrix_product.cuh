#pragma once
// For kernel sources (nvcc): C = A B of square row-major matrices checked on the GPU against the host
// reference's double sums, with no copy of A, B or C to the host. Each element's sum runs over
// k = 0, 1, ..., n - 1, the order of the host loop; the product of two floats is exact in double and every
// addition is rounded on its own (__dadd_rn), so the reference is the host's to the bit, and the test is
// compare_with_reference's: |c - sum| <= tolerance * max(1, |sum|) (0: equal), NaN never passing.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/registry/device_elementwise.cuh"
#include "counterguard/registry/kernel_run.hpp"

namespace counterguard {
namespace detail {

// The double sum of a[row][k] * b[k][col] over k in order; on the GPU and on the host alike.
template <typename T>
__host__ __device__ double matrix_product_element(const T* a_row, const T* b_column, std::size_t n,
                                                  std::size_t b_stride) {
  double sum = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
#ifdef __CUDA_ARCH__
    sum =
        __dadd_rn(sum, __dmul_rn(static_cast<double>(a_row[k]), static_cast<double>(b_column[k * b_stride])));
#else
    sum += static_cast<double>(a_row[k]) * static_cast<double>(b_column[k * b_stride]);
#endif
  }
  return sum;
}

__host__ __device__ inline bool within_tolerance(double actual, double expected, double tolerance) {
  if (tolerance == 0.0)
    return actual == expected;
#ifdef __CUDA_ARCH__
  return fabs(__dsub_rn(actual, expected)) <= __dmul_rn(tolerance, fmax(1.0, fabs(expected)));
#else
  return std::fabs(actual - expected) <= tolerance * std::fmax(1.0, std::fabs(expected));
#endif
}

constexpr unsigned matrix_check_block_x = 32;
constexpr unsigned matrix_check_block_y = 8;

// One thread per element of C.
template <typename T>
__global__ void check_matrix_product_kernel(const T* a, const T* b, const T* c, std::size_t n,
                                            double tolerance, element_mismatches* found) {
  const std::size_t col = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::size_t row = std::size_t{blockIdx.y} * blockDim.y + threadIdx.y;
  if (row >= n || col >= n)
    return;
  const double expected = matrix_product_element(a + row * n, b + col, n, n);
  if (!within_tolerance(static_cast<double>(c[row * n + col]), expected, tolerance))
    record_mismatch(found, row * n + col);
}

}  // namespace detail

// Whether c = a b for the n x n row-major matrices a, b and c on the GPU, element by element within
// `tolerance` relative to max(1, |expected|): the first mismatch (its expected sum recomputed on the host
// from its row of a and column of b) and the count, as compare_with_reference says them.
template <typename T>
[[nodiscard]] verification check_matrix_product_on_device(const std::string& what, const T* a, const T* b,
                                                          const T* c, std::size_t n, double tolerance) {
  if (n == 0)
    return verification::success();
  device_mismatches found;
  const dim3 block(detail::matrix_check_block_x, detail::matrix_check_block_y);
  const dim3 grid(static_cast<unsigned>((n + block.x - 1) / block.x),
                  static_cast<unsigned>((n + block.y - 1) / block.y));
  detail::check_matrix_product_kernel<<<grid, block>>>(a, b, c, n, tolerance, found.get());
  return found.report(what, c, n * n, [a, b, n](std::size_t index) {
    const std::size_t row = index / n;
    const std::size_t col = index % n;
    std::vector<T> a_row(n);
    std::vector<T> b_column(n);
    COUNTERGUARD_CUDA_CHECK(cudaMemcpy(a_row.data(), a + row * n, n * sizeof(T), cudaMemcpyDeviceToHost));
    COUNTERGUARD_CUDA_CHECK(cudaMemcpy2D(b_column.data(), sizeof(T), b + col, n * sizeof(T), sizeof(T), n,
                                         cudaMemcpyDeviceToHost));
    return detail::matrix_product_element(a_row.data(), b_column.data(), n, 1);
  });
}

}  // namespace counterguard
// SPDX-License-Identifier: Apache-2.0
