// SPDX-License-Identifier: Apache-2.0
#include "counterguard/checker/run_verdict.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

check_outcome check(check_verdict verdict, bool failing) {
  check_outcome c;
  c.metric = "m";
  c.verdict = verdict;
  c.failing = failing;
  c.message = "m went wrong";
  return c;
}

run_results one_case(case_result result) {
  run_results results;
  results.cases.push_back(std::move(result));
  return results;
}

TEST(decide_exit_code, all_passing_is_success) {
  case_result c;
  c.checks.push_back(check(check_verdict::pass, false));
  c.checks.push_back(check(check_verdict::new_metric, false));
  EXPECT_EQ(decide_exit_code(one_case(c), false), exit_code::success);
}

TEST(decide_exit_code, skipped_cases_are_success) {
  case_result c;
  c.status = case_status::skipped;
  EXPECT_EQ(decide_exit_code(one_case(c), true), exit_code::success);
}

TEST(decide_exit_code, a_failing_check_fails_the_run) {
  case_result c;
  c.checks.push_back(check(check_verdict::regression, true));
  EXPECT_EQ(decide_exit_code(one_case(c), false), exit_code::check_failed);
}

TEST(decide_exit_code, a_wrong_output_fails_the_run) {
  case_result c;
  c.verified = false;
  EXPECT_EQ(decide_exit_code(one_case(c), false), exit_code::check_failed);
}

TEST(decide_exit_code, a_case_error_fails_the_run) {
  case_result c;
  c.status = case_status::error;
  EXPECT_EQ(decide_exit_code(one_case(c), false), exit_code::check_failed);
}

TEST(decide_exit_code, an_improvement_fails_only_when_strict) {
  case_result c;
  c.checks.push_back(check(check_verdict::improvement, false));
  EXPECT_EQ(decide_exit_code(one_case(c), false), exit_code::success);
  EXPECT_EQ(decide_exit_code(one_case(c), true), exit_code::check_failed);
}

TEST(settle_case_status, a_failing_check_fails_the_case_with_its_message) {
  case_result c;
  c.checks.push_back(check(check_verdict::fail, true));
  c.checks.push_back(check(check_verdict::regression, true));
  settle_case_status(c, false);
  EXPECT_EQ(c.status, case_status::failed);
  EXPECT_EQ(c.status_reason, "m went wrong (and 1 more failing checks)");
}

TEST(settle_case_status, a_wrong_output_fails_the_case_whatever_the_counters) {
  case_result c;
  c.verified = false;
  c.verification_message = "out[3] = 7, expected 8";
  c.checks.push_back(check(check_verdict::pass, false));
  settle_case_status(c, false);
  EXPECT_EQ(c.status, case_status::failed);
  EXPECT_EQ(c.status_reason, "wrong output: out[3] = 7, expected 8");
}

TEST(settle_case_status, leaves_skipped_cases_alone) {
  case_result c;
  c.status = case_status::skipped;
  c.status_reason = "no GPU";
  settle_case_status(c, true);
  EXPECT_EQ(c.status, case_status::skipped);
  EXPECT_EQ(c.status_reason, "no GPU");
}

TEST(attention_rank, lists_failures_before_regressions_before_what_fails_only_when_strict) {
  EXPECT_LT(attention_rank(check(check_verdict::fail, true), false),
            attention_rank(check(check_verdict::regression, true), false));
  EXPECT_LT(attention_rank(check(check_verdict::regression, true), false),
            attention_rank(check(check_verdict::improvement, false), true));
  EXPECT_EQ(attention_rank(check(check_verdict::improvement, false), true),
            attention_rank(check(check_verdict::missing, true), false));
}

TEST(attention_rank, puts_what_does_not_fail_after_what_does_and_passes_last) {
  const int improvement = attention_rank(check(check_verdict::improvement, false), false);
  const int missing = attention_rank(check(check_verdict::missing, false), false);
  const int added = attention_rank(check(check_verdict::new_metric, false), false);
  const int passed = attention_rank(check(check_verdict::pass, false), false);
  EXPECT_LT(attention_rank(check(check_verdict::missing, true), false), improvement);
  EXPECT_LT(improvement, missing);
  EXPECT_LT(missing, added);
  EXPECT_LT(added, passed);
}

TEST(counters_not_checked, a_profiled_run_leaves_no_counter_check_unrun) {
  case_result c;
  c.checks.push_back(check(check_verdict::pass, false));
  EXPECT_FALSE(counters_not_checked(one_case(c)).has_value());
}

TEST(counters_not_checked, sums_the_cases_counter_checks_and_gives_the_runs_reason) {
  run_results results;
  results.metadata.counters_not_run = "no GPU";
  for (const std::size_t unchecked : {6U, 0U, 18U}) {
    case_result c;
    c.counter_checks_not_run = unchecked;
    results.cases.push_back(c);
  }
  const std::optional<unmeasured_counters> unmeasured = counters_not_checked(results);
  ASSERT_TRUE(unmeasured.has_value());
  EXPECT_EQ(unmeasured->checks, 24U);
  EXPECT_EQ(describe_unmeasured(*unmeasured), "static checks only: 24 counter checks not run: no GPU");
}

TEST(counters_not_checked, do_not_change_the_exit_status_of_passing_static_checks) {
  case_result c;
  c.counter_checks_not_run = 3;
  c.checks.push_back(check(check_verdict::pass, false));
  EXPECT_EQ(decide_exit_code(one_case(c), true), exit_code::success);
}

}  // namespace
}  // namespace counterguard
