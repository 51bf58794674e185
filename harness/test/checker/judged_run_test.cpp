// SPDX-License-Identifier: Apache-2.0
#include "counterguard/checker/judged_run.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace counterguard {
namespace {

// A case of `status` with one check of each verdict; fail and regression checks are failing, as the
// checker marks them.
case_result case_with(case_status status, const std::vector<check_verdict>& verdicts) {
  case_result result;
  result.status = status;
  for (const check_verdict verdict : verdicts) {
    result.checks.emplace_back();
    result.checks.back().verdict = verdict;
    result.checks.back().failing = verdict == check_verdict::fail || verdict == check_verdict::regression;
  }
  return result;
}

// A passed case with a pass and a new metric, a failed one with a fail and a regression, a skipped and an
// errored one.
run_results four_cases() {
  run_results results;
  results.cases = {case_with(case_status::passed, {check_verdict::pass, check_verdict::new_metric}),
                   case_with(case_status::failed, {check_verdict::fail, check_verdict::regression}),
                   case_with(case_status::skipped, {}), case_with(case_status::error, {})};
  results.cases[0].seconds = 0.5;
  results.cases[1].seconds = 0.25;
  return results;
}

TEST(judge_run, counts_cases_and_checks_by_outcome) {
  const judged_run run = judge_run(four_cases(), false);
  const run_summary& s = run.summary;
  EXPECT_EQ(s.cases, 4U);
  EXPECT_EQ(s.passed, 1U);
  EXPECT_EQ(s.failed, 1U);
  EXPECT_EQ(s.skipped, 1U);
  EXPECT_EQ(s.errors, 1U);
  EXPECT_EQ(s.check_pass, 1U);
  EXPECT_EQ(s.check_fail, 1U);
  EXPECT_EQ(s.check_regression, 1U);
  EXPECT_EQ(s.check_new, 1U);
  EXPECT_EQ(s.failing_checks, 2U);
  EXPECT_DOUBLE_EQ(s.seconds, 0.75);
  EXPECT_EQ(run.status, exit_code::check_failed);
}

TEST(judge_run, counts_a_passed_case_with_a_failing_check_as_failed) {
  run_results results = four_cases();
  results.cases[0].checks[0].failing = true;
  EXPECT_EQ(judge_run(std::move(results), false).summary.failed, 2U);
}

TEST(judge_run, counts_an_improvement_as_failing_only_when_strict) {
  run_results results;
  results.cases = {case_with(case_status::passed, {check_verdict::improvement})};
  EXPECT_EQ(judge_run(results, false).summary.failing_checks, 0U);
  EXPECT_EQ(judge_run(results, true).summary.failing_checks, 1U);
}

TEST(judge_run, words_the_counter_checks_a_run_that_profiled_nothing_left_unchecked) {
  run_results results;
  results.metadata.counters_not_run = "no GPU";
  results.cases = {case_with(case_status::passed, {})};
  results.cases[0].counter_checks_not_run = 24;
  EXPECT_EQ(judge_run(results, false).static_checks_only,
            "static checks only: 24 counter checks not run: no GPU");
}

TEST(judge_run, leaves_the_static_checks_only_text_empty_when_the_run_profiled_its_cases) {
  EXPECT_EQ(judge_run(four_cases(), false).static_checks_only, "");
}

}  // namespace
}  // namespace counterguard
