// The same two loops of integer work, chosen per warp (no divergence), per lane by parity (half the lanes
// idle in each loop), and a loop whose trip count grows with the lane (lanes drop out one by one).
// Divergence is a property of which threads of a warp take a branch at run time, not of the code's shape:
// warp_uniform has the same branch as odd_even and runs at 32 threads per instruction.
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

namespace counterguard::kernels::divergence {

// The two paths differ in their arithmetic so the compiler cannot merge them; run-time trip counts keep
// them as loops instead of predicated straight-line code.
__host__ __device__ inline unsigned path_a(unsigned v, int iterations) {
  for (int i = 0; i < iterations; ++i)
    v = v * 1664525U + 1013904223U;
  return v;
}
__host__ __device__ inline unsigned path_b(unsigned v, int iterations) {
  for (int i = 0; i < iterations; ++i)
    v = (v ^ (v << 13U)) ^ ((v >> 17U) + 0x9E3779B9U);
  return v;
}

// The branch depends on the warp index: every warp takes one side whole.
__global__ void warp_uniform(const unsigned* x, unsigned* y, int iterations) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned v = x[i];
  y[i] = ((threadIdx.x / 32U) % 2U == 0U) ? path_a(v, iterations) : path_b(v, iterations);
}

// The branch depends on the lane's parity: each warp runs both loops with 16 lanes active.
__global__ void odd_even(const unsigned* x, unsigned* y, int iterations) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned v = x[i];
  y[i] = (threadIdx.x % 2U == 0U) ? path_a(v, iterations) : path_b(v, iterations);
}

// Lane L runs (L + 1) * iterations / 32 rounds: the warp runs 32 steps of iterations / 32 rounds with
// 32, 31, ..., 1 lanes active, 16.5 on average.
__global__ void lane_loop(const unsigned* x, unsigned* y, int iterations) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % 32U);
  y[i] = path_a(x[i], (lane + 1) * iterations / 32);
}

// path_a with a trip count the compiler knows: it unrolls the loop into straight-line code it can predicate.
template <int rounds>
__host__ __device__ inline unsigned path_a_unrolled(unsigned v) {
  for (int i = 0; i < rounds; ++i)
    v = v * 1664525U + 1013904223U;
  return v;
}

// The same parity test as odd_even around a short straight-line body: the compiler predicates it instead of
// branching, so every lane issues every instruction (32 threads per instruction, no divergent branch) while
// the odd lanes are predicated off in the body. Only predicated-on threads per instruction shows the waste,
// as in the textbook interleaved reduction (`if (tid % (2 * s) == 0)`).
__global__ void predicated_odd_even(const unsigned* x, unsigned* y, int /*iterations*/) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = x[i];
  if (threadIdx.x % 2U == 0U)
    v = path_a_unrolled<8>(v);
  y[i] = v;
}

namespace {

enum class pattern { warp_uniform, odd_even, lane_loop, predicated_odd_even };

using divergence_kernel = void (*)(const unsigned*, unsigned*, int);

class divergence_run final : public kernel_run {
 public:
  divergence_run(const kernel_arguments& arguments, pattern which)
      : m_pattern(which),
        m_n(arguments.integer("n")),
        m_block(arguments.integer("block")),
        m_iterations(arguments.integer("iterations")),
        m_x(static_cast<std::size_t>(m_n)),
        m_y(static_cast<std::size_t>(m_n)) {
    std::vector<unsigned> host(static_cast<std::size_t>(m_n));
    // SplitMix64 adds a constant to its state per value: a chunk starts at seed + begin * that constant.
    parallel_for(host.size(), [&](std::size_t begin, std::size_t end) {
      std::uint64_t state = 0xD1BE46EULL + 0x9E3779B97F4A7C15ULL * begin;
      for (std::size_t i = begin; i < end; ++i)
        host[i] = static_cast<unsigned>(splitmix64(state));
    });
    m_x.upload(host);
    m_y.fill_bytes(0xFF);
  }

  void launch(cudaStream_t stream) override {
    const auto block = static_cast<unsigned>(m_block);
    const auto grid = static_cast<unsigned>(m_n / m_block);
    const auto iterations = static_cast<int>(m_iterations);
    switch (m_pattern) {
      case pattern::warp_uniform:
        warp_uniform<<<grid, block, 0, stream>>>(m_x.data(), m_y.data(), iterations);
        break;
      case pattern::odd_even:
        odd_even<<<grid, block, 0, stream>>>(m_x.data(), m_y.data(), iterations);
        break;
      case pattern::lane_loop:
        lane_loop<<<grid, block, 0, stream>>>(m_x.data(), m_y.data(), iterations);
        break;
      case pattern::predicated_odd_even:
        predicated_odd_even<<<grid, block, 0, stream>>>(m_x.data(), m_y.data(), iterations);
        break;
    }
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    const std::vector<unsigned> x = m_x.download();
    std::vector<unsigned> expected(x.size());
    const auto iterations = static_cast<int>(m_iterations);
    parallel_for(x.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        expected[i] =
            reference(x[i], static_cast<unsigned>(i % static_cast<std::size_t>(m_block)), iterations);
    });
    return compare_with_reference("y", m_y.download(), expected);
  }

 private:
  // What thread `thread` of its block writes for input v.
  [[nodiscard]] unsigned reference(unsigned v, unsigned thread, int iterations) const {
    switch (m_pattern) {
      case pattern::warp_uniform:
        return (thread / 32U) % 2U == 0U ? path_a(v, iterations) : path_b(v, iterations);
      case pattern::odd_even:
        return thread % 2U == 0U ? path_a(v, iterations) : path_b(v, iterations);
      case pattern::lane_loop:
        return path_a(v, (static_cast<int>(thread % 32U) + 1) * iterations / 32);
      case pattern::predicated_odd_even:
        return thread % 2U == 0U ? path_a_unrolled<8>(v) : v;
    }
    return v;
  }

  pattern m_pattern;
  std::int64_t m_n;
  std::int64_t m_block;
  std::int64_t m_iterations;
  device_buffer<unsigned> m_x;
  device_buffer<unsigned> m_y;
};

kernel_definition& define(const char* name, const char* description, const char* device_function,
                          pattern which) {
  return kernel_registry::global()
      .add(name)
      .describe(description)
      .launches(device_function)
      .parameter("n", std::int64_t{1} << 20, "elements, one per thread (a multiple of block)",
                 range(64, 1 << 28))
      .parameter("block", std::int64_t{256}, "threads per block", range(64, 1024).multiple_of(64))
      .parameter("iterations", std::int64_t{64}, "loop rounds per path", range(32, 1 << 20).multiple_of(32))
      .require("n is a multiple of block",
               [](const kernel_arguments& a) { return a.integer("n") % a.integer("block") == 0; })
      .factory([which](const kernel_arguments& a) { return std::make_unique<divergence_run>(a, which); });
}

}  // namespace

[[maybe_unused]] static kernel_definition& warp_uniform_registration =
    define("divergence/warp_uniform", "a branch on the warp index: whole warps take one path",
           "counterguard::kernels::divergence::warp_uniform", pattern::warp_uniform);

[[maybe_unused]] static kernel_definition& odd_even_registration =
    define("divergence/odd_even", "a branch on the lane's parity: every warp runs both paths half-empty",
           "counterguard::kernels::divergence::odd_even", pattern::odd_even);

[[maybe_unused]] static kernel_definition& lane_loop_registration =
    define("divergence/lane_loop", "a loop whose trip count grows with the lane index",
           "counterguard::kernels::divergence::lane_loop", pattern::lane_loop);

[[maybe_unused]] static kernel_definition& predicated_odd_even_registration =
    define("divergence/predicated_odd_even",
           "a parity test around straight-line code: predicated, not branched (iterations unused)",
           "counterguard::kernels::divergence::predicated_odd_even", pattern::predicated_odd_even);

}  // namespace counterguard::kernels::divergence
// SPDX-License-Identifier: Apache-2.0
