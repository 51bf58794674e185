// SPDX-License-Identifier: Apache-2.0
// The built-ins' input sequences by index give, element for element, the bits of the sequential loops the
// variants generated their inputs with, at the seeds and sizes of the built-in cases (on the CPU; the GPU
// fill of the same sequences is indexed_inputs_device_test).
#include "counterguard/registry/indexed_inputs.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "sequential_inputs.hpp"

namespace counterguard {
namespace {

// The first element whose bits differ, or "none".
template <typename T, typename Sequence>
std::string first_difference(const std::vector<T>& loop, const Sequence& by_index) {
  for (std::size_t i = 0; i < loop.size(); ++i) {
    const T value = by_index(i);
    if (std::memcmp(&value, &loop[i], sizeof(T)) != 0)
      return "element " + std::to_string(i) + ": " + std::to_string(value) + " by index, " +
             std::to_string(loop[i]) + " from the loop";
  }
  return "none";
}

TEST(indexed_inputs, splitmix64_at_is_the_value_the_sequential_generator_gives) {
  std::uint64_t state = 0x1234ULL;
  for (std::uint64_t i = 0; i < 1000; ++i)
    ASSERT_EQ(splitmix64_at(0x1234ULL, i), splitmix64(state)) << i;
  static_assert(splitmix64_at(0, 0) == 0xE220A8397B1DCDAFULL, "the first SplitMix64 output from 0");
}

TEST(indexed_inputs, splitmix64_low_words_match_the_occupancy_and_divergence_loops) {
  for (const std::uint64_t seed : {0x0CC0ULL, 0xD1BE46EULL})
    EXPECT_EQ(first_difference(sequential_inputs::splitmix64_low_words(seed, std::size_t{1} << 21),
                               splitmix64_low_words{seed}),
              "none")
        << seed;
}

TEST(indexed_inputs, splitmix64_below_matches_the_atomics_and_histogram_loops) {
  EXPECT_EQ(first_difference(sequential_inputs::splitmix64_below(0xA70A1C5ULL, 1000, 1, std::size_t{1} << 20),
                             splitmix64_below{0xA70A1C5ULL, 1000, 1}),
            "none");
  for (const std::uint64_t bins : {4096ULL, 65536ULL})
    EXPECT_EQ(
        first_difference(sequential_inputs::splitmix64_below(0x4157064AULL, bins, 0, std::size_t{1} << 21),
                         splitmix64_below{0x4157064AULL, bins, 0}),
        "none")
        << bins;
}

TEST(indexed_inputs, splitmix64_signed_unit_floats_match_the_matmul_loop) {
  for (const std::uint64_t seed : {0x3A7A1ULL, 0x3B7B2ULL})
    EXPECT_EQ(first_difference(sequential_inputs::splitmix64_signed_unit_floats(seed, 512 * 512),
                               splitmix64_signed_unit_floats{seed}),
              "none")
        << seed;
}

TEST(indexed_inputs, lcg_words_match_the_spills_loops) {
  for (const std::uint32_t seed : {4242u, 99u})
    EXPECT_EQ(first_difference(sequential_inputs::lcg_words(seed, 32768 * 64), lcg_words{seed}), "none")
        << seed;
}

TEST(indexed_inputs, lcg_small_floats_match_the_texture_loop) {
  EXPECT_EQ(first_difference(sequential_inputs::lcg_small_floats(777u, std::size_t{1} << 22),
                             lcg_small_floats{777u}),
            "none");
}

}  // namespace
}  // namespace counterguard
