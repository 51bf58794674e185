// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/summary_text.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"

namespace counterguard {
namespace {

TEST(summary_line, reads_as_documented) {
  EXPECT_EQ(summary_line(judge_run(test::sample_run(), false)),
            "4 cases: 1 passed, 1 failed, 1 skipped, 1 errors; checks: 1 pass, 1 fail, 1 regression, 0 "
            "improvement, "
            "1 new, 0 missing");
}

TEST(summary_line, of_a_run_that_profiled_nothing_says_how_many_counter_checks_were_not_run_and_why) {
  run_results results = test::sample_run();
  results.metadata.counters_not_run = "no GPU";
  results.cases[0].counter_checks_not_run = 24;
  const std::string line = summary_line(judge_run(results, false));
  EXPECT_NE(line.find("; static checks only: 24 counter checks not run: no GPU"), std::string::npos) << line;
}

TEST(verdict_heading, is_passed_with_static_checks_only_when_nothing_was_profiled) {
  run_results results;
  case_result c;
  c.counter_checks_not_run = 2;
  results.cases.push_back(c);
  EXPECT_EQ(verdict_heading(judge_run(results, false)), "passed (static checks only)");
  results.cases[0].counter_checks_not_run = 0;
  EXPECT_EQ(verdict_heading(judge_run(results, false)), "passed");
  EXPECT_EQ(verdict_heading(judge_run(test::sample_run(), false)), "FAILED");
}

}  // namespace
}  // namespace counterguard
