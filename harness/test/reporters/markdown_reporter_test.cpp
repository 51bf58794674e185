// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/markdown_reporter.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"

namespace counterguard {
namespace {

TEST(markdown_report, heading_says_failed_when_the_run_fails) {
  EXPECT_EQ(
      render_markdown_report(judge_run(test::sample_run(), false)).rfind("## counterguard: FAILED\n", 0), 0U);
}

TEST(markdown_report, heading_says_passed_and_every_check_passed) {
  run_results results = test::sample_run();
  results.cases.resize(1);
  results.cases[0].checks.resize(1);
  const std::string md = render_markdown_report(judge_run(results, false));
  EXPECT_EQ(md.rfind("## counterguard: passed\n", 0), 0U);
  EXPECT_NE(md.find("Every check passed."), std::string::npos);
}

TEST(markdown_report, lists_items_most_urgent_first_before_the_counts) {
  const std::string md = render_markdown_report(judge_run(test::sample_run(), false));
  const auto error = md.find("| **error** |");
  const auto failed = md.find("| **failed** |");
  const auto regression = md.find("| **regression** |");
  const auto fresh = md.find("| new |");
  const auto counts = md.find("**4 cases**");
  ASSERT_NE(error, std::string::npos) << md;
  EXPECT_LT(error, failed);
  EXPECT_LT(failed, regression);
  EXPECT_LT(regression, fresh);
  EXPECT_LT(fresh, counts);
}

TEST(markdown_report, does_not_list_passing_checks) {
  const std::string md = render_markdown_report(judge_run(test::sample_run(), false));
  EXPECT_EQ(md.find("`transpose/smem?pad=1,n=2048` | `shared_store_bank_conflicts`"), std::string::npos);
}

TEST(markdown_report, puts_skipped_cases_in_a_details_block) {
  const std::string md = render_markdown_report(judge_run(test::sample_run(), false));
  EXPECT_NE(md.find("<details><summary>1 skipped</summary>"), std::string::npos);
  EXPECT_NE(md.find("- `dsmem/cluster`: needs clusters & sm_90"), std::string::npos);
}

TEST(markdown_report, a_small_run_is_unchanged_by_the_limit) {
  const std::string md = render_markdown_report(judge_run(test::sample_run(), false));
  EXPECT_EQ(md, render_markdown_report(judge_run(test::sample_run(), false), {0, {}}));
  EXPECT_EQ(
      md,
      "## counterguard: FAILED\n\n"
      "| verdict | case | metric | expected | measured | details |\n|---|---|---|---|---|---|\n"
      "| **error** | `atomics/hist<\"x\">` |  |  |  | illegal address <at 0x10> |\n"
      "| **failed** | `transpose/naive?n=2048` | `shared_store_bank_conflicts` | == 0 | 4063232 | "
      "shared_store_bank_conflicts says fail |\n"
      "| **regression** | `transpose/naive?n=2048` | `duration_ns` | 1000 in [900, 1100] | 1500 | "
      "duration_ns says regression |\n"
      "| new | `transpose/smem?pad=1,n=2048` | `global_load_sectors` | 4194304 (exact) | 4194304 | "
      "global_load_sectors says new_metric |\n\n"
      "**4 cases**: 1 passed, 1 failed, 1 skipped, 1 errors.  \n"
      "**4 checks**: 1 pass, 1 failed, 1 regression, 0 improvement, 1 new, 0 missing.\n"
      "\nImprovements and new metrics are recorded with `counterguard baseline update`.\n"
      "\nGPU: NVIDIA H200 (`GH100-132sm-cuda13`)\n"
      "\n<details><summary>1 skipped</summary>\n\n- `dsmem/cluster`: needs clusters & sm_90\n\n</details>\n");
}

// Thousands of failing checks: a planted regression that moved every counter of a large suite.
run_results large_failing_run(std::size_t cases, std::size_t checks_per_case) {
  run_results results = test::sample_run();
  for (std::size_t i = 0; i < cases; ++i) {
    case_result c;
    c.instance = "coalescing/strided?stride=" + std::to_string(i) + ",n=16777216";
    c.suite = "coalescing";
    c.status = case_status::failed;
    for (std::size_t k = 0; k < checks_per_case; ++k) {
      c.checks.push_back(test::make_check("global_load_sectors_per_request_" + std::to_string(k), "== 4", 32,
                                          check_verdict::fail, true));
    }
    results.cases.push_back(c);
  }
  return results;
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

TEST(markdown_report, a_large_failing_run_stays_within_the_limit) {
  const run_results results = large_failing_run(200, 20);  // 4000 failing checks
  ASSERT_GT(render_markdown_report(judge_run(results, false), {0, {}}).size(), 4 * default_markdown_limit);
  const std::string md =
      render_markdown_report(judge_run(results, false), {default_markdown_limit, "out/results.json"});
  EXPECT_LE(md.size(), default_markdown_limit);
  EXPECT_GT(md.size(), default_markdown_limit - 1000) << "the budget should be used";
}

TEST(markdown_report, over_the_limit_keeps_the_heading_counts_and_most_urgent_rows) {
  const std::string md =
      render_markdown_report(judge_run(large_failing_run(200, 20), false), {20000, "out/results.json"});
  EXPECT_EQ(md.rfind("## counterguard: FAILED\n", 0), 0U);
  EXPECT_NE(md.find("**204 cases**: 1 passed, 201 failed, 1 skipped, 1 errors."), std::string::npos) << md;
  EXPECT_NE(md.find("| **error** | `atomics/hist<\"x\">`"), std::string::npos);
  EXPECT_EQ(md.find("| new |"), std::string::npos) << "the least urgent row is the first to go";
}

TEST(markdown_report, over_the_limit_says_how_many_rows_were_left_out_and_where_they_are) {
  const std::string md =
      render_markdown_report(judge_run(large_failing_run(200, 20), false), {20000, "out/results.json"});
  const std::size_t total = 4000 + 4;  // the failing checks plus the sample's error, failure, regression, new
  const std::size_t listed = count_of(md, "\n| **") + count_of(md, "\n| new |");
  const std::string line =
      "_**" + std::to_string(total - listed) + " of " + std::to_string(total) +
      " entries are not listed here** for size; all of them are in `out/results.json`._\n";
  EXPECT_NE(md.find(line), std::string::npos) << md.substr(md.size() - 600);
  EXPECT_LT(md.find(line), md.find("**204 cases**"));
}

TEST(markdown_report, over_the_limit_without_a_file_points_at_the_console_output) {
  const std::string md = render_markdown_report(judge_run(large_failing_run(100, 20), false), {10000, ""});
  EXPECT_NE(md.find("the job's console output lists all of them"), std::string::npos);
}

TEST(markdown_cell, escapes_pipes_and_flattens_lines) {
  EXPECT_EQ(markdown_cell("a|b\nc"), "a\\|b c");
}

}  // namespace
}  // namespace counterguard

namespace counterguard {
namespace {

TEST(markdown_report, puts_a_blamed_cases_source_lines_right_after_its_failing_checks) {
  const std::string md = render_markdown_report(judge_run(test::sample_run_with_blame(), false));
  const auto row = md.find(
      "| source line | `transpose/naive?n=2048` | `shared_excess_wavefronts` | 0 | 4063232 | "
      "transpose.cu:34  STS [R7], R8  (counterguard::kernels::transpose::naive) |");
  ASSERT_NE(row, std::string::npos) << md;
  const auto regression = md.find("`duration_ns`");
  ASSERT_NE(regression, std::string::npos);
  EXPECT_LT(regression, row) << "after the case's regression";
}

TEST(markdown_report, of_a_run_that_profiled_nothing_says_static_checks_only_in_its_heading_and_counts) {
  const std::string md = render_markdown_report(judge_run(test::static_only_run(), false));
  EXPECT_EQ(md.rfind("## counterguard: passed (static checks only)\n", 0), 0U) << md;
  EXPECT_NE(md.find("**static checks only: 5 counter checks not run: no GPU**"), std::string::npos) << md;
  EXPECT_NE(md.find("Every static check passed."), std::string::npos) << md;
}

}  // namespace
}  // namespace counterguard
