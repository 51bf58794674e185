// One simple kernel launched at different block sizes and with dynamic shared memory reserved only to limit
// how many blocks an SM holds. It reports the occupancy calculator's answer (theoretical_occupancy, exact)
// beside the achieved occupancy the profiler measures (noisy).
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/host_work.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/registry/splitmix64.hpp"

namespace counterguard::kernels::occupancy {

// y[i] = a few rounds of an integer hash of x[i]: enough work per thread that the resident warps, not the
// launch overhead, decide the run. The dynamic shared memory is reserved by the launch and not touched.
__global__ void hash_rounds(const unsigned* x, unsigned* y, int rounds) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = x[i];
  for (int r = 0; r < rounds; ++r) {
    v ^= v >> 16U;
    v *= 0x7FEB352DU;
    v ^= v >> 15U;
    v *= 0x846CA68BU;
  }
  y[i] = v ^ (v >> 16U);
}

namespace {

unsigned hash_rounds_reference(unsigned v, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    v ^= v >> 16U;
    v *= 0x7FEB352DU;
    v ^= v >> 15U;
    v *= 0x846CA68BU;
  }
  return v ^ (v >> 16U);
}

class occupancy_run final : public kernel_run {
 public:
  explicit occupancy_run(const kernel_arguments& arguments)
      : m_n(arguments.integer("n")),
        m_block(arguments.integer("block")),
        m_rounds(arguments.integer("rounds")),
        m_shared_bytes(arguments.integer("shared_bytes")),
        m_x(static_cast<std::size_t>(m_n)),
        m_y(static_cast<std::size_t>(m_n)) {
    // Above 48 KB dynamic shared memory must be allowed explicitly; asking for the largest carveout makes the
    // calculator and the launch use the same shared-memory size per SM.
    COUNTERGUARD_CUDA_CHECK(cudaFuncSetAttribute(hash_rounds, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 static_cast<int>(m_shared_bytes)));
    COUNTERGUARD_CUDA_CHECK(cudaFuncSetAttribute(hash_rounds, cudaFuncAttributePreferredSharedMemoryCarveout,
                                                 cudaSharedmemCarveoutMaxShared));
    std::vector<unsigned> host(static_cast<std::size_t>(m_n));
    // SplitMix64 adds a constant to its state per value: a chunk starts at seed + begin * that constant.
    parallel_for(host.size(), [&](std::size_t begin, std::size_t end) {
      std::uint64_t state = 0x0CC0ULL + 0x9E3779B97F4A7C15ULL * begin;
      for (std::size_t i = begin; i < end; ++i)
        host[i] = static_cast<unsigned>(splitmix64(state));
    });
    m_x.upload(host);
    m_y.fill_bytes(0xFF);
  }

  void launch(cudaStream_t stream) override {
    const auto block = static_cast<unsigned>(m_block);
    const auto grid = static_cast<unsigned>(m_n / m_block);
    hash_rounds<<<grid, block, static_cast<std::size_t>(m_shared_bytes), stream>>>(
        m_x.data(), m_y.data(), static_cast<int>(m_rounds));
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    const std::vector<unsigned> x = m_x.download();
    std::vector<unsigned> expected(x.size());
    parallel_for(x.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        expected[i] = hash_rounds_reference(x[i], static_cast<int>(m_rounds));
    });
    return compare_with_reference("y", m_y.download(), expected);
  }

  // Resident warps the calculator allows per SM, as a percentage of the SM's warp slots.
  [[nodiscard]] std::map<std::string, double> runtime_metrics() override {
    int blocks_per_sm = 0;
    COUNTERGUARD_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks_per_sm, hash_rounds, static_cast<int>(m_block), static_cast<std::size_t>(m_shared_bytes)));
    int device = 0;
    COUNTERGUARD_CUDA_CHECK(cudaGetDevice(&device));
    int threads_per_sm = 0;
    COUNTERGUARD_CUDA_CHECK(
        cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    const double warps_per_block = static_cast<double>((m_block + 31) / 32);
    const double warp_slots = static_cast<double>(threads_per_sm / 32);
    return {{"theoretical_occupancy", 100.0 * blocks_per_sm * warps_per_block / warp_slots}};
  }

 private:
  std::int64_t m_n;
  std::int64_t m_block;
  std::int64_t m_rounds;
  std::int64_t m_shared_bytes;
  device_buffer<unsigned> m_x;
  device_buffer<unsigned> m_y;
};

}  // namespace

COUNTERGUARD_REGISTER_KERNEL("occupancy/hash_rounds")
    .describe("an integer hash per element at a chosen block size and dynamic shared memory reservation")
    .launches("counterguard::kernels::occupancy::hash_rounds")
    .parameter("n", std::int64_t{1} << 21, "elements (a multiple of block)", range(32, 1 << 28))
    .parameter("block", std::int64_t{256}, "threads per block", range(32, 1024).multiple_of(32))
    .parameter("rounds", std::int64_t{16}, "hash rounds per element", range(0, 1 << 20))
    .parameter("shared_bytes", std::int64_t{0},
               "dynamic shared memory per block, reserved to limit resident blocks", range(0, 1 << 20))
    .require("n is a multiple of block",
             [](const kernel_arguments& a) { return a.integer("n") % a.integer("block") == 0; })
    .factory([](const kernel_arguments& a) { return std::make_unique<occupancy_run>(a); });

}  // namespace counterguard::kernels::occupancy
// SPDX-License-Identifier: Apache-2.0
