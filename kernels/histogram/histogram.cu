// Histograms of n values into `bins` counters, three ways: a global atomic per value; a block-private
// histogram in shared memory merged with one global atomic per bin and block; and a cluster-private histogram
// in distributed shared memory (sm_90), where each of the cluster's blocks owns bins / cluster_size bins, so
// a histogram too large for one block's shared memory fits the cluster, and the merge shrinks by
// cluster_size. Every atomic's result is unused, so global ones compile to RED: they count in
// global_reduction_requests.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/host_work.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/registry/splitmix64.hpp"

namespace counterguard::kernels::histogram {

namespace cg = cooperative_groups;

// One global atomic per value: n / 32 warp-level requests, scattered over the bins.
__global__ void global_atomics(const unsigned* values, unsigned* histogram) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&histogram[values[i]], 1U);
}

// Each block counts blockDim.x * items values into its own shared histogram (n / 32 shared atomic
// instructions), then adds every bin to the global one (blocks * bins / 32 requests).
__global__ void block_shared(const unsigned* values, unsigned* histogram, unsigned bins, unsigned items) {
  extern __shared__ unsigned block_bins[];
  for (unsigned b = threadIdx.x; b < bins; b += blockDim.x)
    block_bins[b] = 0;
  __syncthreads();
  const unsigned first = blockIdx.x * blockDim.x * items + threadIdx.x;
  for (unsigned k = 0; k < items; ++k)
    atomicAdd(&block_bins[values[first + k * blockDim.x]], 1U);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < bins; b += blockDim.x)
    atomicAdd(&histogram[b], block_bins[b]);
}

// Like block_shared, but the private histogram belongs to the cluster: block `rank` holds bins
// [rank * bins / ranks, (rank + 1) * bins / ranks). Every increment goes through the cluster's shared memory
// window (map_shared_rank, also for the block's own part): n / 32 distributed-shared atomic instructions;
// the merge is blocks * (bins / ranks) / 32 requests.
__global__ void cluster_shared(const unsigned* values, unsigned* histogram, unsigned bins, unsigned items) {
  extern __shared__ unsigned cluster_bins[];
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned bins_per_block = bins / cluster.num_blocks();
  for (unsigned b = threadIdx.x; b < bins_per_block; b += blockDim.x)
    cluster_bins[b] = 0;
  cluster.sync();  // every block's part is zeroed before any block adds to it
  const unsigned first = blockIdx.x * blockDim.x * items + threadIdx.x;
  for (unsigned k = 0; k < items; ++k) {
    const unsigned value = values[first + k * blockDim.x];
    unsigned* owner = cluster.map_shared_rank(cluster_bins, value / bins_per_block);
    atomicAdd(&owner[value % bins_per_block], 1U);
  }
  cluster.sync();  // all adds have landed, and no block exits while others may still write to its part
  const unsigned offset = cluster.block_rank() * bins_per_block;
  for (unsigned b = threadIdx.x; b < bins_per_block; b += blockDim.x) {
    atomicAdd(&histogram[offset + b], cluster_bins[b]);
  }
}

namespace {

enum class strategy { global_atomics, block_shared, cluster_shared };

// items and cluster_size belong to some variants only; the others behave as if they were 1.
std::int64_t items_of(const kernel_arguments& a) {
  return a.has("items") ? a.integer("items") : 1;
}
std::int64_t cluster_size_of(const kernel_arguments& a) {
  return a.has("cluster_size") ? a.integer("cluster_size") : 1;
}

class histogram_run final : public kernel_run {
 public:
  histogram_run(const kernel_arguments& arguments, strategy how)
      : m_strategy(how),
        m_n(arguments.integer("n")),
        m_bins(arguments.integer("bins")),
        m_block(arguments.integer("block")),
        m_items(items_of(arguments)),
        m_cluster_size(cluster_size_of(arguments)),
        m_values(static_cast<std::size_t>(m_n)),
        m_histogram(static_cast<std::size_t>(m_bins)) {
    m_shared_bytes = how == strategy::global_atomics
                         ? 0
                         : static_cast<std::size_t>(m_bins / m_cluster_size) * sizeof(unsigned);
    if (how == strategy::block_shared)
      allow_shared_bytes(block_shared);
    if (how == strategy::cluster_shared)
      allow_shared_bytes(cluster_shared);

    std::vector<unsigned> host(static_cast<std::size_t>(m_n));
    m_expected.assign(static_cast<std::size_t>(m_bins), 0U);
    // SplitMix64 adds a constant to its state per value: a chunk starts at seed + begin * that constant and
    // counts its own values; the counts are merged (integer sums: the order does not matter).
    std::mutex merge;
    parallel_for(host.size(), [&](std::size_t begin, std::size_t end) {
      std::vector<unsigned> counts(static_cast<std::size_t>(m_bins), 0U);
      std::uint64_t state = 0x4157064AULL + 0x9E3779B97F4A7C15ULL * begin;
      for (std::size_t i = begin; i < end; ++i) {
        host[i] = static_cast<unsigned>(splitmix64(state) % static_cast<std::uint64_t>(m_bins));
        ++counts[host[i]];
      }
      const std::lock_guard<std::mutex> lock(merge);
      for (std::size_t bin = 0; bin < counts.size(); ++bin)
        m_expected[bin] += counts[bin];
    });
    m_values.upload(host);
    m_histogram.fill_bytes(0);  // the accumulator; kernel replay restores it between passes
  }

  void launch(cudaStream_t stream) override {
    const auto block = static_cast<unsigned>(m_block);
    const auto bins = static_cast<unsigned>(m_bins);
    const auto items = static_cast<unsigned>(m_items);
    const auto grid = static_cast<unsigned>(m_n / (m_block * m_items));
    switch (m_strategy) {
      case strategy::global_atomics:
        global_atomics<<<grid, block, 0, stream>>>(m_values.data(), m_histogram.data());
        break;
      case strategy::block_shared:
        block_shared<<<grid, block, m_shared_bytes, stream>>>(m_values.data(), m_histogram.data(), bins,
                                                              items);
        break;
      case strategy::cluster_shared: {
        cudaLaunchAttribute cluster{};
        cluster.id = cudaLaunchAttributeClusterDimension;
        cluster.val.clusterDim.x = static_cast<unsigned>(m_cluster_size);
        cluster.val.clusterDim.y = 1;
        cluster.val.clusterDim.z = 1;
        cudaLaunchConfig_t config{};
        config.gridDim = dim3(grid);
        config.blockDim = dim3(block);
        config.dynamicSmemBytes = m_shared_bytes;
        config.stream = stream;
        config.attrs = &cluster;
        config.numAttrs = 1;
        COUNTERGUARD_CUDA_CHECK(
            cudaLaunchKernelEx(&config, cluster_shared, m_values.data(), m_histogram.data(), bins, items));
        break;
      }
    }
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    return compare_with_reference("histogram", m_histogram.download(), m_expected);
  }

 private:
  // Dynamic shared memory above 48 KB must be allowed explicitly.
  template <typename Kernel>
  void allow_shared_bytes(Kernel kernel) const {
    COUNTERGUARD_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 static_cast<int>(m_shared_bytes)));
  }

  strategy m_strategy;
  std::int64_t m_n;
  std::int64_t m_bins;
  std::int64_t m_block;
  std::int64_t m_items;
  std::int64_t m_cluster_size;
  std::size_t m_shared_bytes = 0;
  device_buffer<unsigned> m_values;
  device_buffer<unsigned> m_histogram;
  std::vector<unsigned> m_expected;
};

kernel_definition& define(const char* name, const char* description, const char* device_function) {
  return kernel_registry::global()
      .add(name)
      .describe(description)
      .launches(device_function)
      .parameter("n", std::int64_t{1} << 21, "values to count (a multiple of block * items * cluster_size)",
                 range(1, 1 << 28))
      .parameter("bins", std::int64_t{4096}, "histogram bins; values are uniform in [0, bins)",
                 range(32, 1 << 20).multiple_of(32))
      .parameter("block", std::int64_t{256}, "threads per block", range(32, 1024).multiple_of(32))
      .require("the cluster size is set with the cluster_size parameter, not launch.cluster",
               [](const kernel_arguments& a) { return !a.launch().has_cluster(); })
      .require("n is a multiple of block * items * cluster_size",
               [](const kernel_arguments& a) {
                 return a.integer("n") % (a.integer("block") * items_of(a) * cluster_size_of(a)) == 0;
               })
      .require("bins is a multiple of 32 * cluster_size",
               [](const kernel_arguments& a) { return a.integer("bins") % (32 * cluster_size_of(a)) == 0; });
}

}  // namespace

[[maybe_unused]] static kernel_definition& global_atomics_registration =
    define("histogram/global_atomics", "one global atomicAdd per value, straight into the histogram",
           "counterguard::kernels::histogram::global_atomics")
        .factory([](const kernel_arguments& a) {
          return std::make_unique<histogram_run>(a, strategy::global_atomics);
        });

[[maybe_unused]] static kernel_definition& block_shared_registration =
    define(
        "histogram/block_shared",
        "a block-private histogram in shared memory, merged into the global one with one atomicAdd per bin",
        "counterguard::kernels::histogram::block_shared")
        .parameter("items", std::int64_t{16}, "values per thread", range(1, 1 << 16))
        .factory([](const kernel_arguments& a) {
          return std::make_unique<histogram_run>(a, strategy::block_shared);
        });

[[maybe_unused]] static kernel_definition& cluster_shared_registration =
    define(
        "histogram/cluster",
        "a cluster-private histogram in distributed shared memory; each block owns bins / cluster_size bins",
        "counterguard::kernels::histogram::cluster_shared")
        .parameter("items", std::int64_t{16}, "values per thread", range(1, 1 << 16))
        .parameter("cluster_size", std::int64_t{2}, "blocks per thread-block cluster (portable sizes)",
                   range(1, 8))
        .min_compute_capability(90)
        .factory([](const kernel_arguments& a) {
          return std::make_unique<histogram_run>(a, strategy::cluster_shared);
        });

}  // namespace counterguard::kernels::histogram
// SPDX-License-Identifier: Apache-2.0
