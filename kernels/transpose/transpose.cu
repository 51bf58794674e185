// out = transpose(in) for an n x n float matrix, by 32 x 32 tiles; a block of 32 x rows threads walks its
// tile in steps of `rows`. The shared-memory kernels write the tile column-wise (the transposing step) and
// read it row-wise, so the bank conflicts of an unpadded tile show on the stores.
#include <cstdint>
#include <memory>
#include <string>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/host_work.hpp"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_registry.hpp"

namespace counterguard::kernels::transpose {

constexpr int tile = 32;

// Loads are coalesced (a warp reads 32 floats of one row: 4 sectors); stores scatter over 32 rows
// (32 sectors per request).
__global__ void naive(const float* in, float* out, int n) {
  const int x = blockIdx.x * tile + threadIdx.x;
  const int y = blockIdx.y * tile + threadIdx.y;
  for (int j = 0; j < tile; j += blockDim.y) {
    out[std::int64_t{x} * n + y + j] = in[std::int64_t{y + j} * n + x];
  }
}

// Tile rows are `pitch` floats apart in dynamic shared memory: pitch 32 puts a column in one bank (32-way
// conflicts, 31 extra wavefronts per warp store), pitch 33 spreads it over all 32 banks.
__global__ void smem_tile(const float* in, float* out, int n, int pitch) {
  extern __shared__ float buffer[];
  const int x = blockIdx.x * tile + threadIdx.x;
  const int y = blockIdx.y * tile + threadIdx.y;
  for (int j = 0; j < tile; j += blockDim.y) {
    buffer[threadIdx.x * pitch + threadIdx.y + j] = in[std::int64_t{y + j} * n + x];
  }
  __syncthreads();
  const int out_x = blockIdx.y * tile + threadIdx.x;
  const int out_y = blockIdx.x * tile + threadIdx.y;
  for (int j = 0; j < tile; j += blockDim.y) {
    out[std::int64_t{out_y + j} * n + out_x] = buffer[(threadIdx.y + j) * pitch + threadIdx.x];
  }
}

// Unpadded 32 x 32 tile with column c of row r stored at c ^ r: both the column-wise store and the row-wise
// load hit 32 distinct banks, with no extra shared memory.
__global__ void smem_swizzled(const float* in, float* out, int n) {
  __shared__ float buffer[tile * tile];
  const int x = blockIdx.x * tile + threadIdx.x;
  const int y = blockIdx.y * tile + threadIdx.y;
  for (int j = 0; j < tile; j += blockDim.y) {
    const int row = threadIdx.x;
    const int column = threadIdx.y + j;
    buffer[row * tile + (column ^ row)] = in[std::int64_t{y + j} * n + x];
  }
  __syncthreads();
  const int out_x = blockIdx.y * tile + threadIdx.x;
  const int out_y = blockIdx.x * tile + threadIdx.y;
  for (int j = 0; j < tile; j += blockDim.y) {
    const int row = threadIdx.y + j;
    const int column = threadIdx.x;
    out[std::int64_t{out_y + j} * n + out_x] = buffer[row * tile + (column ^ row)];
  }
}

namespace {

enum class variant { naive, smem, swizzled };

// A block of 32 x rows threads walks its tile in steps of `rows`.
bool tile_shaped_block(const kernel_arguments& a) {
  const auto& block = a.launch().block;
  return !a.launch().has_block() || (block[0] == tile && tile % block[1] == 0 && block[2] == 1);
}

// Element i of the input matrix (row-major): small integers as floats, the Numerical Recipes generator's
// state after i + 1 steps from 12345.
struct matrix_element {
  __host__ __device__ float operator()(std::size_t i) const {
    const std::uint32_t state = lcg_state_after(12345u, i + 1);
    return static_cast<float>(static_cast<int>(state >> 20) - 2048);
  }
};

// The reference of out[k]: out[column * n + row] = in[row * n + column].
struct transposed_element {
  std::size_t n;
  __host__ __device__ float operator()(std::size_t k) const { return matrix_element{}((k % n) * n + k / n); }
};

// The input written and the output checked on the GPU (device_elementwise.cuh).
class transpose_run final : public kernel_run {
 public:
  transpose_run(const kernel_arguments& a, variant kind, std::int64_t pad)
      : m_n(a.integer("n")), m_kind(kind), m_pad(pad) {
    if (a.launch().has_block())
      m_rows = a.launch().block[1];
    const auto count = static_cast<std::size_t>(m_n * m_n);
    m_in = std::make_unique<device_buffer<float>>(count);
    fill_elements_on_device(m_in->data(), count, matrix_element{});
    m_out = std::make_unique<device_buffer<float>>(count);
    m_out->fill_bytes(0xFF);
  }

  void launch(cudaStream_t stream) override {
    const auto tiles = static_cast<unsigned>(m_n / tile);
    const dim3 grid(tiles, tiles);
    const dim3 block(tile, m_rows);
    const int n = static_cast<int>(m_n);
    switch (m_kind) {
      case variant::naive:
        naive<<<grid, block, 0, stream>>>(m_in->data(), m_out->data(), n);
        break;
      case variant::smem: {
        const int pitch = tile + static_cast<int>(m_pad);
        const std::size_t bytes = sizeof(float) * tile * static_cast<std::size_t>(pitch);
        smem_tile<<<grid, block, bytes, stream>>>(m_in->data(), m_out->data(), n, pitch);
        break;
      }
      case variant::swizzled:
        smem_swizzled<<<grid, block, 0, stream>>>(m_in->data(), m_out->data(), n);
        break;
    }
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    const auto n = static_cast<std::size_t>(m_n);
    return check_elements_on_device("out", m_out->data(), n * n, transposed_element{n});
  }

 private:
  std::int64_t m_n;
  variant m_kind;
  std::int64_t m_pad;
  unsigned m_rows = 8;
  std::unique_ptr<device_buffer<float>> m_in;
  std::unique_ptr<device_buffer<float>> m_out;
};

}  // namespace

COUNTERGUARD_REGISTER_KERNEL("transpose/naive")
    .describe("out[x][y] = in[y][x] straight from global memory: coalesced loads, 32-sector stores")
    .launches("counterguard::kernels::transpose::naive")
    .parameter("n", std::int64_t{2048}, "matrix side", range(tile, 8192).multiple_of(tile))
    .require("the block is [32, rows] with rows dividing 32", tile_shaped_block)
    .factory([](const kernel_arguments& a) { return std::make_unique<transpose_run>(a, variant::naive, 0); });

COUNTERGUARD_REGISTER_KERNEL("transpose/smem")
    .describe(
        "transpose through a 32 x (32 + pad) shared tile, written column-wise: pad 0 gives 32-way store "
        "conflicts, pad 1 none")
    .launches("counterguard::kernels::transpose::smem_tile")
    .parameter("n", std::int64_t{2048}, "matrix side", range(tile, 8192).multiple_of(tile))
    .require("the block is [32, rows] with rows dividing 32", tile_shaped_block)
    .parameter("pad", std::int64_t{1}, "floats of padding per tile row (dynamic shared memory)",
               range(0, tile))
    .factory([](const kernel_arguments& a) {
      return std::make_unique<transpose_run>(a, variant::smem, a.integer("pad"));
    });

COUNTERGUARD_REGISTER_KERNEL("transpose/smem_swizzled")
    .describe("transpose through an unpadded 32 x 32 shared tile with XOR-swizzled columns: no conflicts")
    .launches("counterguard::kernels::transpose::smem_swizzled")
    .parameter("n", std::int64_t{2048}, "matrix side", range(tile, 8192).multiple_of(tile))
    .require("the block is [32, rows] with rows dividing 32", tile_shaped_block)
    .factory([](const kernel_arguments& a) {
      return std::make_unique<transpose_run>(a, variant::swizzled, 0);
    });

}  // namespace counterguard::kernels::transpose
// SPDX-License-Identifier: Apache-2.0
