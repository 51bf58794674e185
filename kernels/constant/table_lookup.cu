// Each thread sums `loads` words of a 1024-word table, starting at word (lane % distinct) * 16: a warp reads
// `distinct` different words per load, 64 bytes apart (separate constant-cache lines, separate global
// sectors). distinct is a kernel argument, so the compiler cannot prove the index uniform even when distinct
// is 1.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/registry/verify.hpp"

namespace counterguard::kernels::constant {

constexpr int table_words = 1024;
constexpr int lane_spacing = 16;  // words between the starts of two lanes' reads: 64 bytes
constexpr int max_loads = table_words - 31 * lane_spacing;

__constant__ std::uint32_t constant_table[table_words];

__global__ void constant_lookup(std::uint32_t* out, int distinct, int loads) {
  const int first = (threadIdx.x % 32 % distinct) * lane_spacing;
  std::uint32_t sum = 0;
#pragma unroll 1  // one load per iteration, never merged into wider loads
  for (int r = 0; r < loads; ++r)
    sum += constant_table[first + r];
  out[std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x] = sum;
}

__global__ void global_lookup(const std::uint32_t* table, std::uint32_t* out, int distinct, int loads) {
  const int first = (threadIdx.x % 32 % distinct) * lane_spacing;
  std::uint32_t sum = 0;
#pragma unroll 1
  for (int r = 0; r < loads; ++r)
    sum += table[first + r];
  out[std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x] = sum;
}

namespace {

// The grid is whole blocks of warps.
bool whole_blocks(const kernel_arguments& a) {
  return a.integer("warps") % (a.block_x(256) / 32) == 0;
}

class lookup_run final : public kernel_run {
 public:
  lookup_run(const kernel_arguments& a, bool from_constant)
      : m_from_constant(from_constant),
        m_distinct(a.integer("distinct")),
        m_loads(a.integer("loads")),
        m_warps(a.integer("warps")),
        m_block(a.block_x(256)) {
    m_table_host.resize(table_words);
    for (std::size_t i = 0; i < m_table_host.size(); ++i)
      m_table_host[i] = static_cast<std::uint32_t>(i * 40503u + 17u);
    if (m_from_constant) {
      COUNTERGUARD_CUDA_CHECK(cudaMemcpyToSymbol(constant_table, m_table_host.data(),
                                                 sizeof(std::uint32_t) * m_table_host.size()));
    } else {
      m_table = std::make_unique<device_buffer<std::uint32_t>>(m_table_host);
    }
    m_out = std::make_unique<device_buffer<std::uint32_t>>(static_cast<std::size_t>(m_warps) * 32);
    m_out->fill_bytes(0xFF);
  }

  void launch(cudaStream_t stream) override {
    const auto blocks = static_cast<unsigned>(m_warps * 32 / m_block);
    const int distinct = static_cast<int>(m_distinct);
    const int loads = static_cast<int>(m_loads);
    if (m_from_constant) {
      constant_lookup<<<blocks, m_block, 0, stream>>>(m_out->data(), distinct, loads);
    } else {
      global_lookup<<<blocks, m_block, 0, stream>>>(m_table->data(), m_out->data(), distinct, loads);
    }
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    std::vector<std::uint32_t> expected(m_out->size());
    for (std::size_t t = 0; t < expected.size(); ++t) {
      const std::size_t first = t % 32 % static_cast<std::size_t>(m_distinct) * lane_spacing;
      std::uint32_t sum = 0;
      for (std::size_t r = 0; r < static_cast<std::size_t>(m_loads); ++r)
        sum += m_table_host[first + r];
      expected[t] = sum;
    }
    return compare_with_reference("out", m_out->download(), expected);
  }

 private:
  bool m_from_constant;
  std::int64_t m_distinct;
  std::int64_t m_loads;
  std::int64_t m_warps;
  unsigned m_block;
  std::vector<std::uint32_t> m_table_host;
  std::unique_ptr<device_buffer<std::uint32_t>> m_table;
  std::unique_ptr<device_buffer<std::uint32_t>> m_out;
};

}  // namespace

COUNTERGUARD_REGISTER_KERNEL("constant/lookup")
    .describe("sum of `loads` words of a __constant__ table; a warp reads `distinct` words per load")
    .launches("counterguard::kernels::constant::constant_lookup")
    .parameter("distinct", std::int64_t{1}, "different words a warp reads per load; 1 is a broadcast",
               range(1, 32))
    .parameter("loads", std::int64_t{16}, "table reads per thread", range(1, max_loads))
    .parameter("warps", std::int64_t{2048}, "warps in the grid", range(1, 1 << 20))
    .block_size(range(32, 1024).multiple_of(32))
    .require("warps is a multiple of the warps per block", whole_blocks)
    .factory([](const kernel_arguments& a) { return std::make_unique<lookup_run>(a, true); });

COUNTERGUARD_REGISTER_KERNEL("constant/global_lookup")
    .describe("the same reads from a table in global memory: one request per warp load, `distinct` sectors")
    .launches("counterguard::kernels::constant::global_lookup")
    .parameter("distinct", std::int64_t{1}, "different words a warp reads per load", range(1, 32))
    .parameter("loads", std::int64_t{16}, "table reads per thread", range(1, max_loads))
    .parameter("warps", std::int64_t{2048}, "warps in the grid", range(1, 1 << 20))
    .block_size(range(32, 1024).multiple_of(32))
    .require("warps is a multiple of the warps per block", whole_blocks)
    .factory([](const kernel_arguments& a) { return std::make_unique<lookup_run>(a, false); });

}  // namespace counterguard::kernels::constant
// SPDX-License-Identifier: Apache-2.0
