// SPDX-License-Identifier: Apache-2.0
#include "counterguard/checker/expectation_checker.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace counterguard {
namespace {

resolved_expectation expect(comparison kind, double lower, double upper = 0.0, double tolerance = 0.0) {
  resolved_expectation e;
  e.metric = "shared_store_bank_conflicts";
  e.kind = kind;
  e.lower = lower;
  e.upper = upper;
  e.tolerance = tolerance;
  e.text = "== " + std::to_string(lower);
  e.where = source_location{"cases/transpose.yaml", 12, 7};
  return e;
}

case_result measured_total(const std::string& metric, double value) {
  case_result result;
  result.instance = "transpose/naive?n=2048";
  result.totals[metric] = {value, metric_class::exact};
  return result;
}

TEST(satisfies, equals_is_exact_for_counts) {
  EXPECT_TRUE(satisfies(expect(comparison::equals, 4063232), 4063232));
  EXPECT_FALSE(satisfies(expect(comparison::equals, 4063232), 4063233));
}

TEST(satisfies, equals_zero_rejects_any_count) {
  EXPECT_TRUE(satisfies(expect(comparison::equals, 0), 0));
  EXPECT_FALSE(satisfies(expect(comparison::equals, 0), 1));
}

TEST(satisfies, equals_absorbs_floating_point_error_of_ratios) {
  EXPECT_TRUE(satisfies(expect(comparison::equals, 4.0), 4.0 * (1 + 1e-12)));
  EXPECT_FALSE(satisfies(expect(comparison::equals, 4.0), 4.0001));
}

TEST(satisfies, equals_with_tolerance_is_relative_and_inclusive) {
  EXPECT_TRUE(satisfies(expect(comparison::equals, 1000, 0, 0.05), 1050));
  EXPECT_TRUE(satisfies(expect(comparison::equals, 1000, 0, 0.05), 950));
  EXPECT_FALSE(satisfies(expect(comparison::equals, 1000, 0, 0.05), 1051));
}

TEST(satisfies, min_is_inclusive) {
  EXPECT_TRUE(satisfies(expect(comparison::min, 32), 32));
  EXPECT_FALSE(satisfies(expect(comparison::min, 32), 31));
}

TEST(satisfies, max_is_inclusive) {
  EXPECT_TRUE(satisfies(expect(comparison::max, 0, 0), 0));
  EXPECT_FALSE(satisfies(expect(comparison::max, 0, 0), 1));
}

TEST(satisfies, between_is_inclusive_at_both_ends) {
  EXPECT_TRUE(satisfies(expect(comparison::between, 4, 5), 4));
  EXPECT_TRUE(satisfies(expect(comparison::between, 4, 5), 5));
  EXPECT_FALSE(satisfies(expect(comparison::between, 4, 5), 3.99));
  EXPECT_FALSE(satisfies(expect(comparison::between, 4, 5), 5.01));
}

TEST(satisfies, nan_satisfies_nothing) {
  EXPECT_FALSE(satisfies(expect(comparison::max, 0, 1e30), std::numeric_limits<double>::quiet_NaN()));
}

TEST(check_expectations, reads_totals_for_expectations_without_kernel) {
  const auto outcomes =
      check_expectations({expect(comparison::equals, 0)}, measured_total("shared_store_bank_conflicts", 0));
  ASSERT_EQ(outcomes.size(), 1U);
  EXPECT_EQ(outcomes[0].verdict, check_verdict::pass);
  EXPECT_FALSE(outcomes[0].failing);
  EXPECT_EQ(outcomes[0].origin, "expectation");
  EXPECT_EQ(outcomes[0].measured, std::optional<double>(0.0));
}

TEST(check_expectations, outcomes_carry_the_yaml_location_of_their_expectation) {
  const auto passing =
      check_expectations({expect(comparison::equals, 0)}, measured_total("shared_store_bank_conflicts", 0));
  const auto missing = check_expectations({expect(comparison::equals, 0)}, measured_total("other", 0));
  for (const auto* outcomes : {&passing, &missing}) {
    ASSERT_EQ(outcomes->size(), 1U);
    ASSERT_TRUE(outcomes->front().source.has_value());
    EXPECT_EQ(outcomes->front().source->file, "cases/transpose.yaml");
    EXPECT_EQ(outcomes->front().source->line, 12);
  }
}

TEST(check_expectations, a_violated_expectation_fails_with_a_message_naming_everything) {
  resolved_expectation e = expect(comparison::equals, 0);
  e.text = "== 0";
  const auto outcomes = check_expectations({e}, measured_total("shared_store_bank_conflicts", 4063232));
  ASSERT_EQ(outcomes.size(), 1U);
  EXPECT_EQ(outcomes[0].verdict, check_verdict::fail);
  EXPECT_TRUE(outcomes[0].failing);
  EXPECT_EQ(outcomes[0].message,
            "transpose/naive?n=2048: shared_store_bank_conflicts expected == 0, measured 4063232 "
            "(cases/transpose.yaml:12:7)");
}

TEST(check_expectations, an_unmeasured_metric_is_missing_and_failing) {
  const auto outcomes = check_expectations({expect(comparison::equals, 0)}, measured_total("other", 0));
  ASSERT_EQ(outcomes.size(), 1U);
  EXPECT_EQ(outcomes[0].verdict, check_verdict::missing);
  EXPECT_TRUE(outcomes[0].failing);
  EXPECT_FALSE(outcomes[0].measured.has_value());
}

TEST(check_expectations, a_metric_a_launch_could_not_be_given_says_why) {
  resolved_expectation e = expect(comparison::equals, 0);
  e.metric = "spill_store_bytes";
  case_result result;
  result.instance = "exec/selection";
  kernel_measurement launch;
  launch.function = "tuned_kernel";
  launch.launch_index = 3;
  launch.unmeasured["spill_store_bytes"] = "its module was loaded before counterguard watched the process";
  result.kernels.push_back(launch);
  const auto total = check_expectations({e}, result);
  ASSERT_EQ(total.size(), 1U);
  EXPECT_EQ(total[0].verdict, check_verdict::missing);
  EXPECT_NE(total[0].message.find("not measured (launch 3 of 'tuned_kernel': its module was loaded before"),
            std::string::npos)
      << total[0].message;
  e.kernel = "tuned_kernel";
  const auto per_launch = check_expectations({e}, result);
  ASSERT_EQ(per_launch.size(), 1U);
  EXPECT_NE(per_launch[0].message.find("not measured (its module was loaded before"), std::string::npos)
      << per_launch[0].message;
}

TEST(check_expectations, a_kernel_expectation_reads_launches_matched_by_short_function_name) {
  resolved_expectation e = expect(comparison::between, 4, 5);
  e.metric = "global_load_sectors_per_request";
  e.kernel = "vec_add";
  case_result result;
  result.instance = "coalescing/vec_add";
  result.totals["global_load_sectors_per_request"] = {32, metric_class::exact};  // must not be used
  kernel_measurement launch;
  launch.function = "counterguard::kernels::coalescing::vec_add";
  launch.metrics["global_load_sectors_per_request"] = 4;
  result.kernels.push_back(launch);
  const auto outcomes = check_expectations({e}, result);
  ASSERT_EQ(outcomes.size(), 1U);
  EXPECT_EQ(outcomes[0].verdict, check_verdict::pass);
  EXPECT_EQ(outcomes[0].kernel, "counterguard::kernels::coalescing::vec_add");
}

TEST(check_expectations, every_launch_of_the_kernel_is_checked) {
  resolved_expectation e = expect(comparison::max, 0, 0);
  e.kernel = "step";
  case_result result;
  result.instance = "multi";
  for (double conflicts : {0.0, 8.0}) {
    kernel_measurement launch;
    launch.function = "step";
    launch.metrics["shared_store_bank_conflicts"] = conflicts;
    result.kernels.push_back(launch);
  }
  const auto outcomes = check_expectations({e}, result);
  ASSERT_EQ(outcomes.size(), 2U);
  EXPECT_EQ(outcomes[0].verdict, check_verdict::pass);
  EXPECT_EQ(outcomes[1].verdict, check_verdict::fail);
}

TEST(check_expectations, a_kernel_that_never_launched_is_missing_and_named) {
  resolved_expectation e = expect(comparison::equals, 0);
  e.kernel = "vec_add";
  const auto outcomes = check_expectations({e}, measured_total("shared_store_bank_conflicts", 0));
  ASSERT_EQ(outcomes.size(), 1U);
  EXPECT_EQ(outcomes[0].verdict, check_verdict::missing);
  EXPECT_TRUE(outcomes[0].failing);
  EXPECT_NE(outcomes[0].message.find("no launch of kernel 'vec_add'"), std::string::npos);
}

TEST(check_expectations, each_way_of_measuring_nothing_has_its_own_sentence) {
  resolved_expectation e = expect(comparison::equals, 0);
  e.text = "== 0";
  EXPECT_EQ(check_expectations({e}, measured_total("other", 0))[0].message,
            "transpose/naive?n=2048: shared_store_bank_conflicts expected == 0, but it was not measured "
            "(cases/transpose.yaml:12:7)");
  e.kernel = "vec_add";
  e.where = {};
  EXPECT_EQ(
      check_expectations({e}, measured_total("other", 0))[0].message,
      "transpose/naive?n=2048: shared_store_bank_conflicts [kernel vec_add] expected == 0, but no launch "
      "of kernel 'vec_add' was profiled");
}

TEST(add_expectation_checks, appends_the_outcomes_to_the_cases_checks) {
  case_result result = measured_total("shared_store_bank_conflicts", 2);
  result.checks.push_back(check_outcome{});
  add_expectation_checks({expect(comparison::equals, 0)}, result);
  ASSERT_EQ(result.checks.size(), 2U);
  EXPECT_EQ(result.checks[1].verdict, check_verdict::fail);
}

TEST(add_expectation_checks, a_skipped_or_errored_case_gets_no_checks) {
  for (const case_status status : {case_status::skipped, case_status::error}) {
    case_result result = measured_total("shared_store_bank_conflicts", 2);
    result.status = status;
    add_expectation_checks({expect(comparison::equals, 0)}, result);
    EXPECT_TRUE(result.checks.empty()) << to_string(status);
  }
}

TEST(function_matches, matches_full_name_or_last_component_only) {
  EXPECT_TRUE(function_matches("ns::vec_add", "vec_add"));
  EXPECT_TRUE(function_matches("ns::vec_add", "ns::vec_add"));
  EXPECT_FALSE(function_matches("ns::my_vec_add", "vec_add"));
  EXPECT_FALSE(function_matches("vec_add2", "vec_add"));
}

}  // namespace
}  // namespace counterguard
