// A 64-word per-thread array indexed at run time cannot live in registers: the compiler gives it a 256-byte
// stack frame in local memory (no spill: the array was never in registers). The same computation with the
// array in shared memory, one column per thread, uses no local memory at all.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/host_work.hpp"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_registry.hpp"

namespace counterguard::kernels::spills {

constexpr int array_words = 64;
constexpr int array_block = 128;  // the shared variant's static array holds 64 words for 128 threads (32 KiB)
constexpr int scatter_steps = 32;

// Each step adds one word to another at data-dependent positions (a histogram-like update).
__host__ __device__ __forceinline__ std::uint32_t next_position(std::uint32_t value, int step) {
  return (value * 2654435761u + static_cast<std::uint32_t>(step)) >> 26;  // 0 .. 63
}

__global__ void local_array(const std::uint32_t* in, std::uint32_t* out, int threads) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads)
    return;
  std::uint32_t words[array_words];
  for (int i = 0; i < array_words; ++i)
    words[i] = in[i * threads + t];
  std::uint32_t position = words[0] & 63u;
  for (int step = 0; step < scatter_steps; ++step) {
    const std::uint32_t target = next_position(words[position], step);
    words[target] += words[position];
    position = target;
  }
  for (int i = 0; i < array_words; ++i)
    out[i * threads + t] = words[i];
}

__global__ void __launch_bounds__(array_block)
    shared_array(const std::uint32_t* in, std::uint32_t* out, int threads) {
  __shared__ std::uint32_t columns[array_words * array_block];  // word i of thread x at [i * 128 + x]
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads)
    return;
  std::uint32_t* words = columns + threadIdx.x;
  for (int i = 0; i < array_words; ++i)
    words[i * array_block] = in[i * threads + t];
  std::uint32_t position = words[0] & 63u;
  for (int step = 0; step < scatter_steps; ++step) {
    const std::uint32_t target = next_position(words[position * array_block], step);
    words[target * array_block] += words[position * array_block];
    position = target;
  }
  for (int i = 0; i < array_words; ++i)
    out[i * threads + t] = words[i * array_block];
}

namespace {

// What a thread's words become after the kernels' scatter steps (the reference of both kernels).
__host__ __device__ void scatter_words(std::uint32_t (&words)[array_words]) {
  std::uint32_t position = words[0] & 63u;
  for (int step = 0; step < scatter_steps; ++step) {
    const std::uint32_t target = next_position(words[position], step);
    words[target] += words[position];
    position = target;
  }
}

// The output checked on the GPU, one thread per kernel thread: the host reference's work without copying
// 2 x threads x 64 words.
__global__ void check_scattered_words(const std::uint32_t* in, const std::uint32_t* out, int threads,
                                      detail::element_mismatches* found) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads)
    return;
  std::uint32_t words[array_words];
  for (int i = 0; i < array_words; ++i)
    words[i] = in[i * threads + t];
  scatter_words(words);
  for (int i = 0; i < array_words; ++i) {
    if (out[i * threads + t] != words[i])
      record_mismatch(found, static_cast<std::size_t>(i) * static_cast<std::size_t>(threads) + t);
  }
}

class array_run final : public kernel_run {
 public:
  array_run(const kernel_arguments& a, bool in_shared)
      : m_threads(a.integer("threads")), m_shared(in_shared) {
    m_in_host.resize(static_cast<std::size_t>(m_threads) * array_words);
    fill_from_lcg(m_in_host, 4242u, [](std::uint32_t state) { return state; });
    m_in = std::make_unique<device_buffer<std::uint32_t>>(m_in_host);
    m_out = std::make_unique<device_buffer<std::uint32_t>>(m_in_host.size());
    m_out->fill_bytes(0xFF);
  }

  void launch(cudaStream_t stream) override {
    const auto blocks = static_cast<unsigned>(m_threads / array_block);
    if (m_shared) {
      shared_array<<<blocks, array_block, 0, stream>>>(m_in->data(), m_out->data(),
                                                       static_cast<int>(m_threads));
    } else {
      local_array<<<blocks, array_block, 0, stream>>>(m_in->data(), m_out->data(),
                                                      static_cast<int>(m_threads));
    }
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  [[nodiscard]] verification verify() override {
    const auto threads = static_cast<std::size_t>(m_threads);
    device_mismatches found;
    check_scattered_words<<<static_cast<unsigned>((threads + 255) / 256), 256>>>(
        m_in->data(), m_out->data(), static_cast<int>(threads), found.get());
    return found.report("out", m_out->data(), m_in_host.size(), [&](std::size_t index) {
      std::uint32_t words[array_words];
      for (std::size_t i = 0; i < array_words; ++i)
        words[i] = m_in_host[i * threads + index % threads];
      scatter_words(words);
      return words[index / threads];
    });
  }

 private:
  std::int64_t m_threads;
  bool m_shared;
  std::vector<std::uint32_t> m_in_host;
  std::unique_ptr<device_buffer<std::uint32_t>> m_in;
  std::unique_ptr<device_buffer<std::uint32_t>> m_out;
};

}  // namespace

COUNTERGUARD_REGISTER_KERNEL("spills/local_array")
    .describe("a 64-word array per thread updated at data-dependent indices: a 256-byte stack frame")
    .launches("counterguard::kernels::spills::local_array")
    .parameter("threads", std::int64_t{32768}, "threads",
               range(array_block, 1 << 20).multiple_of(array_block))
    .block_size(range(array_block, array_block))  // the shared array is sized for it
    .factory([](const kernel_arguments& a) { return std::make_unique<array_run>(a, false); });

COUNTERGUARD_REGISTER_KERNEL("spills/shared_array")
    .describe("the local_array computation with the array in shared memory (32 KiB per 128-thread block)")
    .launches("counterguard::kernels::spills::shared_array")
    .parameter("threads", std::int64_t{32768}, "threads",
               range(array_block, 1 << 20).multiple_of(array_block))
    .block_size(range(array_block, array_block))  // the shared array is sized for it
    .factory([](const kernel_arguments& a) { return std::make_unique<array_run>(a, true); });

}  // namespace counterguard::kernels::spills
// SPDX-License-Identifier: Apache-2.0
