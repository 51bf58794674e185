// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/run_summary.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"

namespace counterguard {
namespace {

TEST(run_summary, counts_cases_and_checks_by_outcome) {
  const run_summary s = summarize(judge_run(test::sample_run(), false));
  EXPECT_EQ(s.cases, 4U);
  EXPECT_EQ(s.passed, 1U);
  EXPECT_EQ(s.failed, 1U);
  EXPECT_EQ(s.skipped, 1U);
  EXPECT_EQ(s.errors, 1U);
  EXPECT_EQ(s.check_fail, 1U);
  EXPECT_EQ(s.check_regression, 1U);
  EXPECT_EQ(s.check_new, 1U);
  EXPECT_EQ(s.failing_checks, 2U);
  EXPECT_EQ(s.status, exit_code::check_failed);
}

TEST(run_summary, a_passed_case_with_a_failing_check_counts_as_failed) {
  run_results results = test::sample_run();
  results.cases[0].checks[0].failing = true;
  EXPECT_EQ(summarize(judge_run(results, false)).failed, 2U);
}

TEST(summary_line, reads_as_documented) {
  EXPECT_EQ(summary_line(summarize(judge_run(test::sample_run(), false))),
            "4 cases: 1 passed, 1 failed, 1 skipped, 1 errors; checks: 1 pass, 1 fail, 1 regression, 0 "
            "improvement, "
            "1 new, 0 missing");
}

TEST(summary_line, of_a_run_that_profiled_nothing_says_how_many_counter_checks_were_not_run_and_why) {
  run_results results = test::sample_run();
  results.metadata.counters_not_run = "no GPU";
  results.cases[0].counter_checks_not_run = 24;
  const std::string line = summary_line(summarize(judge_run(results, false)));
  EXPECT_NE(line.find("; static checks only: 24 counter checks not run: no GPU"), std::string::npos) << line;
}

TEST(verdict_heading, is_passed_with_static_checks_only_when_nothing_was_profiled) {
  run_results results;
  case_result c;
  c.counter_checks_not_run = 2;
  results.cases.push_back(c);
  EXPECT_EQ(verdict_heading(summarize(judge_run(results, false))), "passed (static checks only)");
  results.cases[0].counter_checks_not_run = 0;
  EXPECT_EQ(verdict_heading(summarize(judge_run(results, false))), "passed");
  EXPECT_EQ(verdict_heading(summarize(judge_run(test::sample_run(), false))), "FAILED");
}

}  // namespace
}  // namespace counterguard
