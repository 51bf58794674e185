// Summing n integers into one global counter, four ways: one global atomic per thread, per warp (after a
// shuffle reduction), per block (after a shuffle reduction), or per block after staging in a shared atomic.
// The global atomics' results are unused, so they compile to RED (reduction) instructions: the counts show
// up in global_reduction_requests. A request is one warp-level instruction, whatever its active lanes.
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/registry/splitmix64.hpp"
#include "counterguard/registry/verify.hpp"

namespace counterguard::kernels::atomics {

using counter = unsigned long long;

// One global atomic per thread: n thread atomics in n / 32 warp-level requests.
__global__ void per_thread(const unsigned* values, counter* sum) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(sum, static_cast<counter>(values[i]));
}

__device__ counter warp_sum(counter value) {
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_down_sync(0xffffffffU, value, offset);
  return value;  // complete in lane 0
}

// A shuffle reduction per warp, then lane 0 adds the warp's total: n / 32 requests with one active lane each.
__global__ void warp_shuffle(const unsigned* values, counter* sum) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const counter total = warp_sum(values[i]);
  if (threadIdx.x % 32 == 0)
    atomicAdd(sum, total);
}

// Shuffle per warp, the warps' totals through shared memory, one global atomic per block: n / block requests.
__global__ void block_shuffle(const unsigned* values, counter* sum) {
  __shared__ counter warp_totals[32];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const counter total = warp_sum(values[i]);
  const unsigned warp = threadIdx.x / 32;
  const unsigned lane = threadIdx.x % 32;
  if (lane == 0)
    warp_totals[warp] = total;
  __syncthreads();
  if (warp == 0) {
    const unsigned warps = blockDim.x / 32;
    const counter block_total = warp_sum(lane < warps ? warp_totals[lane] : 0);
    if (lane == 0)
      atomicAdd(sum, block_total);
  }
}

// Every thread adds to a shared counter (n / 32 shared atomic instructions), then thread 0 adds the block's
// total to the global counter (n / block requests).
__global__ void block_staged(const unsigned* values, counter* sum) {
  __shared__ counter block_total;
  if (threadIdx.x == 0)
    block_total = 0;
  __syncthreads();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&block_total, static_cast<counter>(values[i]));
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(sum, block_total);
}

namespace {

using sum_kernel = void (*)(const unsigned*, counter*);

class sum_run final : public kernel_run {
 public:
  sum_run(const kernel_arguments& arguments, sum_kernel kernel)
      : m_kernel(kernel),
        m_n(arguments.integer("n")),
        m_block(arguments.integer("block")),
        m_values(static_cast<std::size_t>(m_n)),
        m_sum(1) {
    std::vector<unsigned> host(static_cast<std::size_t>(m_n));
    std::uint64_t state = 0xA70A1C5ULL;
    for (auto& value : host)
      value = 1U + static_cast<unsigned>(splitmix64(state) % 1000U);
    m_expected = std::accumulate(host.begin(), host.end(), counter{0});
    m_values.upload(host);
    m_sum.fill_bytes(0);  // the accumulator; kernel replay restores it between passes
  }

  void launch(cudaStream_t stream) override {
    const auto block = static_cast<unsigned>(m_block);
    const auto grid = static_cast<unsigned>(m_n / m_block);
    m_kernel<<<grid, block, 0, stream>>>(m_values.data(), m_sum.data());
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    return compare_with_reference("sum", m_sum.download(), std::vector<counter>{m_expected});
  }

 private:
  sum_kernel m_kernel;
  std::int64_t m_n;
  std::int64_t m_block;
  device_buffer<unsigned> m_values;
  device_buffer<counter> m_sum;
  counter m_expected = 0;
};

kernel_definition& define(const char* name, const char* description, const char* device_function) {
  return kernel_registry::global()
      .add(name)
      .describe(description)
      .launches(device_function)
      .parameter("n", std::int64_t{1} << 20, "values to sum (a multiple of block)", range(1, 1 << 28))
      .parameter("block", std::int64_t{256}, "threads per block", range(32, 1024).multiple_of(32))
      .require("n is a multiple of block",
               [](const kernel_arguments& a) { return a.integer("n") % a.integer("block") == 0; });
}

}  // namespace

[[maybe_unused]] static kernel_definition& per_thread_registration =
    define("atomics/per_thread", "one global atomicAdd per thread into a single counter",
           "counterguard::kernels::atomics::per_thread")
        .factory([](const kernel_arguments& a) { return std::make_unique<sum_run>(a, per_thread); });

[[maybe_unused]] static kernel_definition& warp_shuffle_registration =
    define("atomics/warp_shuffle", "warp shuffle reduction, one global atomicAdd per warp",
           "counterguard::kernels::atomics::warp_shuffle")
        .factory([](const kernel_arguments& a) { return std::make_unique<sum_run>(a, warp_shuffle); });

[[maybe_unused]] static kernel_definition& block_shuffle_registration =
    define("atomics/block_shuffle",
           "warp shuffles, then the warps' totals in shared memory, one global atomicAdd per block",
           "counterguard::kernels::atomics::block_shuffle")
        .factory([](const kernel_arguments& a) { return std::make_unique<sum_run>(a, block_shuffle); });

[[maybe_unused]] static kernel_definition& block_staged_registration =
    define("atomics/block_staged", "a shared-memory atomicAdd per thread, one global atomicAdd per block",
           "counterguard::kernels::atomics::block_staged")
        .factory([](const kernel_arguments& a) { return std::make_unique<sum_run>(a, block_staged); });

}  // namespace counterguard::kernels::atomics
// SPDX-License-Identifier: Apache-2.0
