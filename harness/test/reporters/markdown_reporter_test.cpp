#include "counterguard/reporters/markdown_reporter.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"

namespace counterguard {
namespace {

TEST(markdown_report, heading_says_failed_when_the_run_fails) {
  EXPECT_EQ(render_markdown_report(test::sample_run(), false).rfind("## counterguard: FAILED\n", 0), 0U);
}

TEST(markdown_report, heading_says_passed_and_every_check_passed) {
  run_results results = test::sample_run();
  results.cases.resize(1);
  results.cases[0].checks.resize(1);
  const std::string md = render_markdown_report(results, false);
  EXPECT_EQ(md.rfind("## counterguard: passed\n", 0), 0U);
  EXPECT_NE(md.find("Every check passed."), std::string::npos);
}

TEST(markdown_report, lists_items_most_urgent_first_before_the_counts) {
  const std::string md = render_markdown_report(test::sample_run(), false);
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
  const std::string md = render_markdown_report(test::sample_run(), false);
  EXPECT_EQ(md.find("`transpose/smem?pad=1,n=2048` | `shared_store_bank_conflicts`"), std::string::npos);
}

TEST(markdown_report, puts_skipped_cases_in_a_details_block) {
  const std::string md = render_markdown_report(test::sample_run(), false);
  EXPECT_NE(md.find("<details><summary>1 skipped</summary>"), std::string::npos);
  EXPECT_NE(md.find("- `dsmem/cluster`: needs clusters & sm_90"), std::string::npos);
}

TEST(markdown_cell, escapes_pipes_and_flattens_lines) {
  EXPECT_EQ(markdown_cell("a|b\nc"), "a\\|b c");
}

}  // namespace
}  // namespace counterguard
