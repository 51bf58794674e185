#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_run.hpp"
#include "counterguard/registry/parallel_for.hpp"
#include "counterguard/registry/verify.hpp"

namespace counterguard::kernels::spills {

// Values each thread keeps live through all mixing rounds: about 70 registers with no limit.
constexpr int live_values = 64;
constexpr int mixing_rounds = 4;

// Every value depends on two others in each round, so all live_values stay live from the first load to the
// last store. Integer arithmetic: the CPU reference is bit-exact.
__host__ __device__ __forceinline__ void mix_values(std::uint32_t (&v)[live_values]) {
#ifdef __CUDA_ARCH__  // the host compiler does not know the pragma
#pragma unroll
#endif
  for (int round = 0; round < mixing_rounds; ++round) {
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int i = 0; i < live_values; ++i) {
      v[i] = v[i] * 2654435761u + (v[(i + 1) % live_values] ^ (v[(i + 17) % live_values] >> 7));
    }
  }
}

// value i of thread t is at [i * threads + t]: every load and store of the kernels is coalesced.
__device__ __forceinline__ void register_heavy_body(const std::uint32_t* in, std::uint32_t* out,
                                                    int threads) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads)
    return;
  std::uint32_t v[live_values];
#pragma unroll
  for (int i = 0; i < live_values; ++i)
    v[i] = in[i * threads + t];
  mix_values(v);
#pragma unroll
  for (int i = 0; i < live_values; ++i)
    out[i * threads + t] = v[i];
}

// Runs one of the register-heavy kernels (all share signature and body) on `threads` threads.
class register_heavy_run final : public kernel_run {
 public:
  using kernel_pointer = void (*)(const std::uint32_t*, std::uint32_t*, int);

  register_heavy_run(const kernel_arguments& a, kernel_pointer kernel)
      : m_kernel(kernel), m_threads(a.integer("threads")), m_block(a.block_x(256)) {
    m_in_host.resize(static_cast<std::size_t>(m_threads) * live_values);
    std::uint32_t state = 99u;
    for (auto& value : m_in_host)
      value = state = state * 1664525u + 1013904223u;
    m_in = std::make_unique<device_buffer<std::uint32_t>>(m_in_host);
    m_out = std::make_unique<device_buffer<std::uint32_t>>(m_in_host.size());
    m_out->fill_bytes(0xFF);
  }

  void launch(cudaStream_t stream) override {
    const auto blocks = static_cast<unsigned>((m_threads + m_block - 1) / m_block);
    m_kernel<<<blocks, m_block, 0, stream>>>(m_in->data(), m_out->data(), static_cast<int>(m_threads));
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    const auto threads = static_cast<std::size_t>(m_threads);
    std::vector<std::uint32_t> expected(m_in_host.size());
    parallel_for(threads, [&](std::size_t first_thread, std::size_t end_thread) {
      for (std::size_t t = first_thread; t < end_thread; ++t) {
        std::uint32_t v[live_values];
        for (std::size_t i = 0; i < live_values; ++i)
          v[i] = m_in_host[i * threads + t];
        mix_values(v);
        for (std::size_t i = 0; i < live_values; ++i)
          expected[i * threads + t] = v[i];
      }
    });
    return compare_with_reference("out", m_out->download(), expected);
  }

 private:
  kernel_pointer m_kernel;
  std::int64_t m_threads;
  unsigned m_block;
  std::vector<std::uint32_t> m_in_host;
  std::unique_ptr<device_buffer<std::uint32_t>> m_in;
  std::unique_ptr<device_buffer<std::uint32_t>> m_out;
};

}  // namespace counterguard::kernels::spills
