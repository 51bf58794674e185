// SPDX-License-Identifier: Apache-2.0
#include "counterguard/history/noise_estimate.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace counterguard::test {
namespace {

TEST(noise_estimate, sigma_is_the_scaled_median_absolute_deviation_and_ignores_an_outlier) {
  // median 12; deviations 2, 0, 1, 1, 88 -> MAD 1.
  const auto spread = estimate_spread({10, 12, 11, 13, 100});
  ASSERT_TRUE(spread.has_value());
  EXPECT_EQ(spread->samples, 5U);
  EXPECT_EQ(spread->median, 12);
  EXPECT_DOUBLE_EQ(spread->sigma, 1.4826);
}

TEST(noise_estimate, when_most_values_are_equal_the_mean_deviation_stands_in) {
  // median 5; deviations 0, 0, 0, 4 -> MAD 0, mean deviation 1.
  const auto spread = estimate_spread({5, 5, 5, 9});
  ASSERT_TRUE(spread.has_value());
  EXPECT_DOUBLE_EQ(spread->sigma, 1.2533);
}

TEST(noise_estimate, fewer_than_the_minimum_finite_values_give_no_estimate) {
  EXPECT_FALSE(estimate_spread({1, 2}).has_value());
  EXPECT_FALSE(estimate_spread({1, 2, std::nan("")}).has_value());
  EXPECT_TRUE(estimate_spread({1, 2, 3}).has_value());
  EXPECT_FALSE(estimate_spread({1, 2, 3}, 4).has_value());
}

TEST(noise_estimate, the_z_score_of_a_change_accounts_for_both_samples_being_noisy) {
  EXPECT_DOUBLE_EQ(change_z_score(2.0 * std::sqrt(2.0), 1.0), 2.0);
  EXPECT_DOUBLE_EQ(change_z_score(-std::sqrt(2.0), 0.5), -2.0);
}

TEST(noise_estimate, a_history_that_never_moved_makes_any_change_infinitely_unlikely) {
  const auto spread = estimate_spread({7, 7, 7});
  ASSERT_TRUE(spread.has_value());
  EXPECT_EQ(spread->sigma, 0.0);
  EXPECT_EQ(change_z_score(0.0, 0.0), 0.0);
  EXPECT_TRUE(std::isinf(change_z_score(1.0, 0.0)));
  EXPECT_LT(change_z_score(-1.0, 0.0), 0.0);
}

}  // namespace
}  // namespace counterguard::test
