// SPDX-License-Identifier: Apache-2.0
// Bands read back from the text that baseline checks write: every form compare_with_baseline produces.
#include "counterguard/history/checked_band.hpp"

#include <gtest/gtest.h>

#include "counterguard/baselines/baseline_comparison.hpp"

namespace counterguard::test {
namespace {

baseline_entry entry(double value, metric_class cls, double min, double max) {
  baseline_entry e;
  e.value = value;
  e.cls = cls;
  e.min = min;
  e.max = max;
  return e;
}

check_outcome checked(const baseline_entry& e) {
  return compare_with_baseline("suite/case", "total", "metric", e, e.value, baseline_comparison_options{});
}

TEST(checked_band, a_noisy_baseline_gives_the_widened_band_it_was_judged_against) {
  const baseline_entry e = entry(5669, metric_class::noisy, 5203, 6100);
  const auto band = band_of_check(checked(e));
  ASSERT_TRUE(band.has_value()) << checked(e).expected;
  const baseline_band expected = acceptance_band(e, baseline_comparison_options{});
  EXPECT_DOUBLE_EQ(band->low, expected.low);
  EXPECT_DOUBLE_EQ(band->high, expected.high);
}

TEST(checked_band, a_noisy_percentage_keeps_its_fractional_bounds) {
  baseline_entry e = entry(84.86692952837517, metric_class::noisy, 84.1, 85.3);
  e.absolute_floor = 0.0;
  const auto band = band_of_check(checked(e));
  ASSERT_TRUE(band.has_value()) << checked(e).expected;
  const baseline_band expected = acceptance_band(e, baseline_comparison_options{});
  EXPECT_DOUBLE_EQ(band->low, expected.low);
  EXPECT_DOUBLE_EQ(band->high, expected.high);
}

TEST(checked_band, an_exact_baseline_is_its_value) {
  const auto band = band_of_check(checked(entry(4063232, metric_class::exact, 4063232, 4063232)));
  ASSERT_TRUE(band.has_value());
  EXPECT_EQ(band->low, 4063232);
  EXPECT_EQ(band->high, 4063232);
}

TEST(checked_band, a_zero_baseline_must_stay_zero) {
  const auto band = band_of_check(checked(entry(0, metric_class::noisy, 0, 0)));
  ASSERT_TRUE(band.has_value());
  EXPECT_EQ(band->low, 0);
  EXPECT_EQ(band->high, 0);
}

TEST(checked_band, a_tolerance_widens_the_value_by_its_percentage) {
  baseline_entry e = entry(4.5, metric_class::exact, 4.5, 4.5);
  e.tolerance = 0.1;
  const auto band = band_of_check(checked(e));
  ASSERT_TRUE(band.has_value()) << checked(e).expected;
  EXPECT_DOUBLE_EQ(band->low, 4.05);
  EXPECT_DOUBLE_EQ(band->high, 4.95);
}

TEST(checked_band, expectations_and_metrics_without_a_baseline_have_none) {
  check_outcome expectation;
  expectation.origin = "expectation";
  expectation.expected = "== 0";
  EXPECT_FALSE(band_of_check(expectation).has_value());
  check_outcome fresh;
  fresh.origin = "baseline";
  fresh.expected = "(no baseline)";
  EXPECT_FALSE(band_of_check(fresh).has_value());
  fresh.expected = "12 in [10, twelve]";
  EXPECT_FALSE(band_of_check(fresh).has_value());
}

}  // namespace
}  // namespace counterguard::test
