// C = A * B for square row-major float matrices of size n: a naive kernel reading A and B from global
// memory for every product, shared-memory tiles of 16x16 and 32x32 (global load sectors fall from n^3 / 8
// to n^3 / (4 * tile)), and a 32x32 tiling that stores the B tile column-major and reads it across a warp
// (every lane in the same bank: 31 extra wavefronts per shared load of B).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/host_work.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/registry/splitmix64.hpp"

namespace counterguard::kernels::matmul {

// One thread per element of C, 16x16 blocks. Per k a warp (two rows of 16 threads) reads A at two
// addresses (2 sectors) and B at 16 consecutive floats (2 sectors): n^3 / 8 sectors in n^3 / 16 requests.
__global__ void naive(const float* a, const float* b, float* c, int n) {
  const int row = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int col = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  float sum = 0.0F;
  for (int k = 0; k < n; ++k)
    sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

// Each block stages a Tile x Tile tile of A and of B per step; each is read Tile times from shared memory.
// Reads of a_tile are broadcasts (one row per warp-row), reads of b_tile consecutive: no bank conflicts.
template <int Tile>
__device__ __forceinline__ void tiled_product(const float* a, const float* b, float* c, int n) {
  __shared__ float a_tile[Tile][Tile];
  __shared__ float b_tile[Tile][Tile];
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int row = static_cast<int>(blockIdx.y) * Tile + ty;
  const int col = static_cast<int>(blockIdx.x) * Tile + tx;
  float sum = 0.0F;
  for (int t = 0; t < n; t += Tile) {
    a_tile[ty][tx] = a[row * n + t + tx];
    b_tile[ty][tx] = b[(t + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Tile; ++k)
      sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

__global__ void tiled_16(const float* a, const float* b, float* c, int n) {
  tiled_product<16>(a, b, c, n);
}
__global__ void tiled_32(const float* a, const float* b, float* c, int n) {
  tiled_product<32>(a, b, c, n);
}

// As tiled_32, but the B tile is stored transposed (column tx contiguous) and read as b_tile[tx][k]: the 32
// lanes of a warp read words 32 apart, all in bank k, so each read takes 32 wavefronts; the transposed
// store conflicts the same way. The stride is blockDim.x (32) read at run time, so the compiler cannot merge
// the scalar tile reads into vector loads and the counts stay one load per product.
__global__ void tiled_32_column_major(const float* a, const float* b, float* c, int n) {
  __shared__ float a_tile[32 * 32];
  __shared__ float b_tile[32 * 32];
  const int stride = static_cast<int>(blockDim.x);
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int row = static_cast<int>(blockIdx.y) * 32 + ty;
  const int col = static_cast<int>(blockIdx.x) * 32 + tx;
  float sum = 0.0F;
  for (int t = 0; t < n; t += 32) {
    a_tile[ty * stride + tx] = a[row * n + t + tx];
    b_tile[tx * stride + ty] = b[(t + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 32; ++k)
      sum += a_tile[ty * stride + k] * b_tile[tx * stride + k];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

namespace {

// Uniform in [-1, 1).
std::vector<float> random_matrix(std::size_t elements, std::uint64_t seed) {
  std::vector<float> values(elements);
  for (auto& value : values) {
    value = static_cast<float>(static_cast<double>(splitmix64(seed) >> 11U) * 0x1.0p-52 - 1.0);
  }
  return values;
}

using matmul_kernel = void (*)(const float*, const float*, float*, int);

class matmul_run final : public kernel_run {
 public:
  matmul_run(const kernel_arguments& arguments, matmul_kernel kernel, unsigned tile)
      : m_kernel(kernel),
        m_tile(tile),
        m_n(arguments.integer("n")),
        m_a(random_matrix(elements(), 0x3A7A1ULL)),
        m_b(random_matrix(elements(), 0x3B7B2ULL)),
        m_c(elements()) {
    m_c.fill_bytes(0xFF);  // NaN everywhere: an element the kernel misses cannot pass
  }

  void launch(cudaStream_t stream) override {
    const dim3 block(m_tile, m_tile);
    const auto tiles = static_cast<unsigned>(m_n) / m_tile;
    const dim3 grid(tiles, tiles);
    m_kernel<<<grid, block, 0, stream>>>(m_a.data(), m_b.data(), m_c.data(), static_cast<int>(m_n));
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    const std::vector<float> a = m_a.download();
    const std::vector<float> b = m_b.download();
    const auto n = static_cast<std::size_t>(m_n);
    std::vector<double> expected(n * n);
    // Rows in parallel; each row sums in the same order as one loop would.
    parallel_for(
        n,
        [&](std::size_t first_row, std::size_t end_row) {
          std::vector<double> row(n);
          for (std::size_t i = first_row; i < end_row; ++i) {
            std::fill(row.begin(), row.end(), 0.0);
            for (std::size_t k = 0; k < n; ++k) {
              const double a_ik = a[i * n + k];
              for (std::size_t j = 0; j < n; ++j)
                row[j] += a_ik * static_cast<double>(b[k * n + j]);
            }
            std::copy(row.begin(), row.end(), expected.begin() + static_cast<std::ptrdiff_t>(i * n));
          }
        },
        1);
    const std::vector<float> c = m_c.download();
    return compare_with_reference("c", std::vector<double>(c.begin(), c.end()), expected, 1e-4);
  }

 private:
  [[nodiscard]] std::size_t elements() const { return static_cast<std::size_t>(m_n * m_n); }

  matmul_kernel m_kernel;
  unsigned m_tile;
  std::int64_t m_n;
  device_buffer<float> m_a;
  device_buffer<float> m_b;
  device_buffer<float> m_c;
};

kernel_definition& define(const char* name, const char* description, const char* device_function,
                          matmul_kernel kernel, unsigned tile) {
  return kernel_registry::global()
      .add(name)
      .describe(description)
      .launches(device_function)
      .parameter("n", std::int64_t{512}, "matrix size (n x n floats)", range(32, 4096).multiple_of(32))
      .factory([kernel, tile](const kernel_arguments& a) {
        return std::make_unique<matmul_run>(a, kernel, tile);
      });
}

}  // namespace

[[maybe_unused]] static kernel_definition& naive_registration =
    define("matmul/naive", "one thread per element of C, 16x16 blocks, A and B read from global memory",
           "counterguard::kernels::matmul::naive", naive, 16);

[[maybe_unused]] static kernel_definition& tiled_16_registration =
    define("matmul/tiled_16", "16x16 shared-memory tiles of A and B",
           "counterguard::kernels::matmul::tiled_16", tiled_16, 16);

[[maybe_unused]] static kernel_definition& tiled_32_registration =
    define("matmul/tiled_32", "32x32 shared-memory tiles of A and B",
           "counterguard::kernels::matmul::tiled_32", tiled_32, 32);

[[maybe_unused]] static kernel_definition& tiled_32_column_major_registration =
    define("matmul/tiled_32_column_major",
           "32x32 tiles, the B tile stored column-major and read across a warp: 32-way bank conflicts",
           "counterguard::kernels::matmul::tiled_32_column_major", tiled_32_column_major, 32);

}  // namespace counterguard::kernels::matmul
// SPDX-License-Identifier: Apache-2.0
