// SPDX-License-Identifier: Apache-2.0
#include "counterguard/checker/shown_checks.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

check_outcome shown_check(const std::string& kernel, std::optional<double> measured,
                          std::optional<double> baseline) {
  check_outcome check;
  check.metric = "shared_load_requests";
  check.kernel = kernel;
  check.measured = measured;
  check.baseline = baseline;
  return check;
}

TEST(shown_verdict, words_a_new_metric_as_new) {
  EXPECT_EQ(shown_verdict(check_verdict::new_metric), "new");
}

TEST(shown_verdict, is_the_results_name_of_every_other_verdict) {
  EXPECT_EQ(shown_verdict(check_verdict::regression), "regression");
  EXPECT_EQ(shown_verdict(check_verdict::fail), "fail");
}

TEST(shown_metric, is_the_metric_alone_for_a_case_total) {
  EXPECT_EQ(shown_metric(shown_check("", 1.0, 1.0)), "shared_load_requests");
}

TEST(shown_metric, names_the_kernel_of_a_per_kernel_check) {
  EXPECT_EQ(shown_metric(shown_check("transpose#0", 1.0, 1.0)), "shared_load_requests [transpose#0]");
}

TEST(shown_delta, signs_a_rise_and_a_fall) {
  EXPECT_EQ(shown_delta(shown_check("", 2048.0, 1024.0)), "+1024");
  EXPECT_EQ(shown_delta(shown_check("", 1024.0, 2048.0)), "-1024");
}

TEST(shown_delta, rounds_a_fraction_for_reading) {
  EXPECT_EQ(shown_delta(shown_check("", 1.0 / 3.0, 0.0)), "+0.333333");
}

TEST(shown_delta, is_a_dash_without_a_baseline_or_a_measured_value) {
  EXPECT_EQ(shown_delta(shown_check("", 1.0, std::nullopt)), "-");
  EXPECT_EQ(shown_delta(shown_check("", std::nullopt, 1.0)), "-");
}

TEST(expectation_line, is_the_checks_own_expectation_line) {
  case_result result;
  result.checks.push_back(shown_check("", 1.0, std::nullopt));
  result.checks[0].source = source_location{"cases/t.yaml", 14, 7};
  EXPECT_EQ(expectation_line(result, result.checks[0])->line, 14);
}

TEST(expectation_line, of_a_baseline_check_is_the_line_of_the_expectation_on_the_same_metric) {
  case_result result;
  result.checks.push_back(shown_check("", 1.0, std::nullopt));
  result.checks[0].source = source_location{"cases/t.yaml", 14, 7};
  result.checks.push_back(shown_check("transpose#0", 1.0, 1.0));
  EXPECT_EQ(expectation_line(result, result.checks[1])->line, 14);
}

TEST(expectation_line, is_null_when_no_expectation_names_the_metric) {
  case_result result;
  result.checks.push_back(shown_check("", 1.0, 1.0));
  EXPECT_EQ(expectation_line(result, result.checks[0]), nullptr);
}

}  // namespace
}  // namespace counterguard
