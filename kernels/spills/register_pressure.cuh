#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/host_work.hpp"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_run.hpp"

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

// Each source's own (anonymous): the kernel gets a name of its own in every build of register_heavy.cu.
namespace {

// The output of register_heavy_body checked on the GPU, one thread per kernel thread, against mix_values of
// its inputs: the host reference's work without copying 2 x threads x 64 words (30-50 ms a case on the H200).
__global__ void check_register_heavy(const std::uint32_t* in, const std::uint32_t* out, int threads,
                                     detail::element_mismatches* found) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads)
    return;
  std::uint32_t v[live_values];
  for (int i = 0; i < live_values; ++i)
    v[i] = in[i * threads + t];
  mix_values(v);
  for (int i = 0; i < live_values; ++i) {
    if (out[i * threads + t] != v[i])
      record_mismatch(found, static_cast<std::size_t>(i) * static_cast<std::size_t>(threads) + t);
  }
}

}  // namespace

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
    device_mismatches found;
    check_register_heavy<<<static_cast<unsigned>((threads + 255) / 256), 256>>>(
        m_in->data(), m_out->data(), static_cast<int>(threads), found.get());
    return found.report("out", m_out->data(), m_in_host.size(), [&](std::size_t index) {
      std::uint32_t v[live_values];
      for (std::size_t i = 0; i < live_values; ++i)
        v[i] = m_in_host[i * threads + index % threads];
      mix_values(v);
      return v[index / threads];
    });
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
// SPDX-License-Identifier: Apache-2.0
