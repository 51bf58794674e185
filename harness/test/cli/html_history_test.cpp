// The HTML report plots the metric histories the history store recorded (run --history DB --html F).
#include <gtest/gtest.h>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size()))
    ++count;
  return count;
}

TEST(html_history, the_report_plots_the_runs_the_history_recorded) {
  scratch_directory dir;
  const std::string db = (dir.path() / "history.db").string();
  const std::string html = (dir.path() / "report.html").string();
  const std::string evaluate =
      "evaluate harness/test/fixtures/h200_builtin --cases cases --filter 'transpose/*' "
      "--quiet --history " +
      db + " --html " + html;
  // Without a history the report says so; with one it plots every recorded metric of the cases.
  const command_result first = run_counterguard(evaluate);
  ASSERT_EQ(first.status, 0) << first.output;
  const std::size_t plots_after_one_run = occurrences(read_text(html), "<svg class=\"cg-plot");
  EXPECT_GT(plots_after_one_run, 0U);
  const command_result second = run_counterguard(evaluate + " --json " + (dir.path() / "r.json").string());
  ASSERT_EQ(second.status, 0) << second.output;
  const std::string page = read_text(html);
  EXPECT_EQ(occurrences(page, "<svg class=\"cg-plot"), plots_after_one_run);
  EXPECT_NE(page.find("transpose/smem_unpadded?n=2048"), std::string::npos);
}

}  // namespace
}  // namespace counterguard::test
