// SPDX-License-Identifier: Apache-2.0
// The host side of a case in parallel: chunked loops, LCG jump-ahead and the parallel output comparison give
// exactly what one sequential loop gives, and a wrong output still fails with its first mismatch.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "counterguard/registry/linear_congruential.hpp"
#include "counterguard/registry/parallel_for.hpp"
#include "counterguard/registry/verify.hpp"

namespace counterguard {
namespace {

// Large enough to be split over every core (parallel_for's default chunk is 65536 elements).
constexpr std::size_t many = std::size_t{1} << 22;

TEST(parallel_for, visits_every_index_exactly_once) {
  std::vector<std::atomic<int>> visits(many);
  parallel_for(many, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      visits[i].fetch_add(1);
  });
  for (std::size_t i = 0; i < many; ++i)
    ASSERT_EQ(visits[i].load(), 1) << i;
}

TEST(parallel_for, an_empty_range_calls_the_body_once_with_nothing_to_do) {
  int calls = 0;
  parallel_for(0, [&](std::size_t begin, std::size_t end) {
    ++calls;
    EXPECT_EQ(begin, end);
  });
  EXPECT_EQ(calls, 1);
}

TEST(parallel_for, rethrows_what_a_chunk_throws_after_all_chunks_finish) {
  std::atomic<std::size_t> done{0};
  EXPECT_THROW(parallel_for(many,
                            [&](std::size_t begin, std::size_t end) {
                              done += end - begin;
                              if (begin <= many / 2 && many / 2 < end)
                                throw std::runtime_error("chunk failed");
                            }),
               std::runtime_error);
  EXPECT_EQ(done.load(), many);
}

TEST(lcg_advance, equals_stepping_the_generator_one_step_at_a_time) {
  std::uint32_t state = 12345U;
  for (std::uint64_t steps = 0; steps < 5000; ++steps) {
    ASSERT_EQ(lcg_advance(12345U, steps, 1664525U, 1013904223U), state) << steps;
    state = state * 1664525U + 1013904223U;
  }
  // Far jumps agree with a long sequential walk.
  std::uint32_t walked = 7U;
  for (std::uint64_t steps = 0; steps < (std::uint64_t{1} << 24); ++steps)
    walked = walked * 1664525U + 1013904223U;
  EXPECT_EQ(lcg_advance(7U, std::uint64_t{1} << 24, 1664525U, 1013904223U), walked);
}

TEST(compare_with_reference, a_planted_wrong_value_in_a_large_output_fails_with_the_first_mismatch) {
  std::vector<float> expected(many);
  for (std::size_t i = 0; i < many; ++i)
    expected[i] = static_cast<float>(i % 1000);
  std::vector<float> actual = expected;
  EXPECT_TRUE(compare_with_reference("c", actual, expected).passed);
  // Wrong values in several chunks: the message names the lowest index and counts all of them.
  actual[many - 1] = -1.0F;
  actual[3 * many / 4 + 5] = -2.0F;
  actual[many / 3 + 7] = -3.0F;
  const verification v = compare_with_reference("c", actual, expected);
  EXPECT_FALSE(v.passed);
  const std::size_t first = many / 3 + 7;
  EXPECT_EQ(v.message, "c[" + std::to_string(first) + "] = -3, expected " + std::to_string(first % 1000) +
                           " (3 of " + std::to_string(many) + " elements differ)");
}

TEST(compare_with_reference, a_single_wrong_value_at_either_end_is_found) {
  std::vector<double> expected(many, 1.0);
  for (const std::size_t where : {std::size_t{0}, many - 1}) {
    std::vector<double> actual = expected;
    actual[where] = 1.01;
    const verification v = compare_with_reference("y", actual, expected, 1e-4);
    EXPECT_FALSE(v.passed);
    EXPECT_EQ(v.message, "y[" + std::to_string(where) + "] = 1.01, expected 1 (1 of " + std::to_string(many) +
                             " elements differ)");
  }
}

}  // namespace
}  // namespace counterguard
