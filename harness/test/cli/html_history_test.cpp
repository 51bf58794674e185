// SPDX-License-Identifier: Apache-2.0
// The HTML report plots the metric histories the history store recorded (run --history DB --html F).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size()))
    ++count;
  return count;
}

TEST(html_history, the_report_plots_a_metric_once_the_history_holds_two_runs_of_it) {
  scratch_directory dir;
  const std::string db = (dir.path() / "history.db").string();
  const std::string html = (dir.path() / "report.html").string();
  const std::string evaluate =
      "evaluate harness/test/fixtures/h200_builtin --cases cases --filter 'transpose/*' "
      "--quiet --history " +
      db + " --html " + html;
  // One recorded run: nothing to plot yet, and the page says so.
  const command_result first = run_counterguard(evaluate);
  ASSERT_EQ(first.status, 0) << first.output;
  const std::string one_run = read_text(html);
  EXPECT_EQ(occurrences(one_run, "<svg class=\"cg-plot"), 0U);
  EXPECT_NE(one_run.find("a metric is plotted once it has two"), std::string::npos);
  // Two runs of the same recording: every metric held its value and band, so each series is counted as
  // unchanged instead of drawn, one per case and metric (no per-kernel repeats of the one-kernel cases).
  const command_result second = run_counterguard(evaluate + " --json " + (dir.path() / "r.json").string());
  ASSERT_EQ(second.status, 0) << second.output;
  const std::string page = read_text(html);
  EXPECT_EQ(occurrences(page, "<svg class=\"cg-plot"), 0U);
  const auto unchanged = page.find(" series held the same value and band in every run");
  ASSERT_NE(unchanged, std::string::npos) << page.substr(page.find("<section id=\"trends\">"));
  const auto number = page.rfind(' ', unchanged - 1);
  const std::size_t series = std::stoul(page.substr(number + 1, unchanged - number - 1));
  std::size_t totals = 0;
  const nlohmann::json second_results = nlohmann::json::parse(read_text(dir.path() / "r.json"));
  for (const auto& c : second_results["cases"])
    totals += c["totals"].size();
  EXPECT_EQ(series, totals);
  EXPECT_NE(page.find("transpose/smem_unpadded?n=2048"), std::string::npos);
}

}  // namespace
}  // namespace counterguard::test
