// Every warp fills a shared array (conflict-free stores) and then issues `loads` shared loads in which lane l
// reads word lane_word[l] + 32 * r. Adding a multiple of 32 keeps every lane in its bank, so each load has
// the conflict degree of the lane_word pattern: the largest number of distinct words that fall in one bank.
//   stride s (lane_word = l * s): gcd(s, 32) wavefronts per load (1, 2, 1, 4, ..., 32 for s = 32; 1 for s =
//   33) broadcast (every lane word 0): 1 wavefront; a permutation of 0..31: 1 wavefront.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/device_elementwise.cuh"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_registry.hpp"

namespace counterguard::kernels::shared_banks {

constexpr int shared_words = 2048;
constexpr int max_loads = 32;  // lane_word <= 33 * 31 = 1023, plus 32 * 31 stays below shared_words

// The lane pattern comes from global memory, so the compiler cannot see it (and cannot merge the loads).
__global__ void read_pattern(const std::uint32_t* words, const int* lane_word, std::uint32_t* out,
                             int loads) {
  __shared__ std::uint32_t buffer[shared_words];
  for (int i = threadIdx.x; i < shared_words; i += blockDim.x)
    buffer[i] = words[i];
  __syncthreads();
  const int first = lane_word[threadIdx.x % 32];
  std::uint32_t sum = 0;
  for (int r = 0; r < loads; ++r)
    sum += buffer[first + 32 * r];
  out[std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x] = sum;
}

namespace {

// Thread t's expected output: the sum its lane's words give (every warp reads the same pattern).
struct lane_sums {
  std::uint32_t sum[32];
  __host__ __device__ std::uint32_t operator()(std::size_t t) const { return sum[t % 32]; }
};

class read_pattern_run final : public kernel_run {
 public:
  read_pattern_run(const kernel_arguments& a, std::vector<int> lane_word)
      : m_warps(a.integer("warps")),
        m_loads(a.integer("loads")),
        m_block(a.block_x(256)),
        m_lane_word_host(std::move(lane_word)) {
    m_words_host.resize(shared_words);
    for (std::size_t i = 0; i < m_words_host.size(); ++i)
      m_words_host[i] = static_cast<std::uint32_t>(i * 2654435761u);
    m_words = std::make_unique<device_buffer<std::uint32_t>>(m_words_host);
    m_lane_word = std::make_unique<device_buffer<int>>(m_lane_word_host);
    m_out = std::make_unique<device_buffer<std::uint32_t>>(static_cast<std::size_t>(m_warps) * 32);
    m_out->fill_bytes(0xFF);
  }

  void launch(cudaStream_t stream) override {
    const auto blocks = static_cast<unsigned>(m_warps * 32 / m_block);
    read_pattern<<<blocks, m_block, 0, stream>>>(m_words->data(), m_lane_word->data(), m_out->data(),
                                                 static_cast<int>(m_loads));
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  }

  // On the GPU: 32 sums, one per lane, checked against every thread's output.
  [[nodiscard]] verification verify() override {
    lane_sums expected{};
    for (std::size_t lane = 0; lane < 32; ++lane) {
      const int first = m_lane_word_host[lane];
      for (std::int64_t r = 0; r < m_loads; ++r)
        expected.sum[lane] += m_words_host[static_cast<std::size_t>(first + 32 * r)];
    }
    return check_elements_on_device("out", m_out->data(), m_out->size(), expected);
  }

 private:
  std::int64_t m_warps;
  std::int64_t m_loads;
  unsigned m_block;
  std::vector<int> m_lane_word_host;
  std::vector<std::uint32_t> m_words_host;
  std::unique_ptr<device_buffer<std::uint32_t>> m_words;
  std::unique_ptr<device_buffer<int>> m_lane_word;
  std::unique_ptr<device_buffer<std::uint32_t>> m_out;
};

// The grid is whole blocks of warps.
bool whole_blocks(const kernel_arguments& a) {
  return a.integer("warps") % (a.block_x(256) / 32) == 0;
}

[[nodiscard]] std::vector<int> strided_words(std::int64_t stride) {
  std::vector<int> words(32);
  for (int lane = 0; lane < 32; ++lane)
    words[lane] = lane * static_cast<int>(stride);
  return words;
}

[[nodiscard]] std::vector<int> permuted_words(std::int64_t seed) {
  std::vector<int> words(32);
  std::iota(words.begin(), words.end(), 0);
  std::mt19937 generator(static_cast<std::uint32_t>(seed));
  // Fisher-Yates with the generator's raw output: the same permutation with every standard library.
  for (std::size_t i = words.size() - 1; i > 0; --i)
    std::swap(words[i], words[generator() % (i + 1)]);
  return words;
}

}  // namespace

COUNTERGUARD_REGISTER_KERNEL("shared_banks/strided")
    .describe("lane l reads shared word l * stride (+ 32 r): gcd(stride, 32) wavefronts per load")
    .launches("counterguard::kernels::shared_banks::read_pattern")
    .parameter("stride", std::int64_t{1}, "words between neighbouring lanes", range(0, 33))
    .parameter("warps", std::int64_t{4096}, "warps in the grid", range(1, 1 << 20))
    .parameter("loads", std::int64_t{8}, "shared loads per thread", range(1, max_loads))
    .block_size(range(32, 1024).multiple_of(32))
    .require("warps is a multiple of the warps per block", whole_blocks)
    .factory([](const kernel_arguments& a) {
      return std::make_unique<read_pattern_run>(a, strided_words(a.integer("stride")));
    });

COUNTERGUARD_REGISTER_KERNEL("shared_banks/broadcast")
    .describe("every lane reads the same shared word: one wavefront per load")
    .launches("counterguard::kernels::shared_banks::read_pattern")
    .parameter("warps", std::int64_t{4096}, "warps in the grid", range(1, 1 << 20))
    .parameter("loads", std::int64_t{8}, "shared loads per thread", range(1, max_loads))
    .block_size(range(32, 1024).multiple_of(32))
    .require("warps is a multiple of the warps per block", whole_blocks)
    .factory([](const kernel_arguments& a) {
      return std::make_unique<read_pattern_run>(a, strided_words(0));
    });

COUNTERGUARD_REGISTER_KERNEL("shared_banks/permuted")
    .describe("lane l reads word perm(l) for a fixed random permutation of 0..31: one wavefront per load")
    .launches("counterguard::kernels::shared_banks::read_pattern")
    .parameter("seed", std::int64_t{7}, "seed of the permutation (std::mt19937)")
    .parameter("warps", std::int64_t{4096}, "warps in the grid", range(1, 1 << 20))
    .parameter("loads", std::int64_t{8}, "shared loads per thread", range(1, max_loads))
    .block_size(range(32, 1024).multiple_of(32))
    .require("warps is a multiple of the warps per block", whole_blocks)
    .factory([](const kernel_arguments& a) {
      return std::make_unique<read_pattern_run>(a, permuted_words(a.integer("seed")));
    });

}  // namespace counterguard::kernels::shared_banks
// SPDX-License-Identifier: Apache-2.0
