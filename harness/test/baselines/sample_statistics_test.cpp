// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/sample_statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace counterguard {
namespace {

TEST(sample_statistics, mean_sd_median_and_range_of_a_sample) {
  const sample_statistics s = compute_sample_statistics({1171, 1152, 1157});
  EXPECT_EQ(s.n, 3);
  EXPECT_DOUBLE_EQ(s.mean, 1160.0);
  EXPECT_NEAR(s.sd, std::sqrt((121.0 + 64.0 + 9.0) / 2.0), 1e-12);
  EXPECT_EQ(s.median, 1157);
  EXPECT_EQ(s.min, 1152);
  EXPECT_EQ(s.max, 1171);
}

TEST(sample_statistics, the_median_of_an_even_count_is_the_mean_of_the_middle_two) {
  EXPECT_DOUBLE_EQ(compute_sample_statistics({4, 1, 3, 2}).median, 2.5);
}

TEST(sample_statistics, one_sample_has_no_spread) {
  const sample_statistics s = compute_sample_statistics({42});
  EXPECT_EQ(s.n, 1);
  EXPECT_EQ(s.sd, 0.0);
  EXPECT_EQ(s.mean, 42.0);
}

TEST(sample_statistics, identical_large_counts_give_exactly_zero_spread_and_their_value) {
  const sample_statistics s = compute_sample_statistics({4097502, 4097502, 4097502, 4097502, 4097502});
  EXPECT_EQ(s.sd, 0.0);
  EXPECT_EQ(s.mean, 4097502.0);
}

TEST(sample_statistics, values_a_run_did_not_measure_are_skipped) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const sample_statistics s = compute_sample_statistics({nan, 10, 20, nan});
  EXPECT_EQ(s.n, 2);
  EXPECT_DOUBLE_EQ(s.mean, 15.0);
}

TEST(sample_statistics, no_finite_value_is_an_error) {
  EXPECT_THROW((void)compute_sample_statistics({}), std::invalid_argument);
  EXPECT_THROW((void)compute_sample_statistics({std::numeric_limits<double>::quiet_NaN()}),
               std::invalid_argument);
}

TEST(make_baseline_entry, a_noisy_entry_carries_what_the_noise_model_needs) {
  const baseline_entry e = make_baseline_entry({1171, 1152, 1157}, metric_class::noisy,
                                               metric_direction::lower_is_better, noise_kind::counts);
  EXPECT_EQ(e.value, 1157);
  EXPECT_EQ(e.min, 1152);
  EXPECT_EQ(e.max, 1171);
  EXPECT_EQ(e.n, 3);
  EXPECT_EQ(e.mean, std::optional<double>(1160.0));
  ASSERT_TRUE(e.sd.has_value());
  EXPECT_NEAR(*e.sd, 9.849, 0.001);
  EXPECT_EQ(e.noise, std::optional<noise_kind>(noise_kind::counts));
  EXPECT_FALSE(e.tolerance || e.absolute_floor || e.false_alarm_rate);
}

TEST(make_baseline_entry, an_exact_entry_stays_as_version_1_wrote_it) {
  const baseline_entry e =
      make_baseline_entry({8, 8, 8}, metric_class::exact, metric_direction::exact, noise_kind::counts);
  EXPECT_EQ(e.value, 8);
  EXPECT_FALSE(e.mean || e.sd || e.noise);
}

}  // namespace
}  // namespace counterguard
