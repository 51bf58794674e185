// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/console_reporter.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <vector>

#include "report_test_support.hpp"

namespace counterguard {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

// The row of `instance` whose METRIC column is `metric`, or "".
std::string row_of(const std::string& text, const std::string& instance, const std::string& metric) {
  for (const auto& line : lines_of(text)) {
    if (line.rfind(instance + " ", 0) != 0)
      continue;
    const auto rest = line.find_first_not_of(' ', instance.size());
    if (line.compare(rest, metric.size() + 1, metric + " ") == 0)
      return line;
  }
  return {};
}

TEST(console_report, aligns_every_column_under_its_header) {
  const auto lines = lines_of(render_console_report(judge_run(test::sample_run(), false)));
  const auto verdict_column = lines[0].find("VERDICT");
  const auto measured_column = lines[0].find("MEASURED");
  ASSERT_NE(verdict_column, std::string::npos);
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    EXPECT_NE(lines[i][verdict_column], ' ') << lines[i];
    EXPECT_EQ(lines[i][verdict_column - 1], ' ') << lines[i];
    EXPECT_NE(lines[i][measured_column], ' ') << lines[i];
  }
}

TEST(console_report, shows_baseline_measured_delta_and_an_upper_case_failing_verdict) {
  const std::string text = render_console_report(judge_run(test::sample_run(), false));
  const std::string line = row_of(text, "transpose/naive?n=2048", "duration_ns");
  ASSERT_FALSE(line.empty()) << text;
  EXPECT_NE(line.find("1000 in [900, 1100]"), std::string::npos);
  EXPECT_NE(line.find("1500"), std::string::npos);
  EXPECT_NE(line.find("+500"), std::string::npos);
  EXPECT_NE(line.find("REGRESSION"), std::string::npos);
}

TEST(console_report, lists_skipped_and_errored_cases_with_reasons) {
  const std::string text = render_console_report(judge_run(test::sample_run(), false));
  EXPECT_NE(text.find("skipped: needs clusters & sm_90"), std::string::npos);
  EXPECT_NE(text.find("ERROR: illegal address <at 0x10>"), std::string::npos);
}

TEST(console_report, ends_with_the_summary_line) {
  const auto lines = lines_of(render_console_report(judge_run(test::sample_run(), false)));
  EXPECT_EQ(lines.back().rfind("4 cases: 1 passed, 1 failed", 0), 0U);
}

TEST(console_report, can_hide_passing_rows) {
  console_report_options options;
  options.show_passing = false;
  const std::string text = render_console_report(judge_run(test::sample_run(), false), options);
  EXPECT_TRUE(row_of(text, "transpose/smem?pad=1,n=2048", "shared_store_bank_conflicts").empty()) << text;
  EXPECT_FALSE(row_of(text, "transpose/naive?n=2048", "shared_store_bank_conflicts").empty()) << text;
}

}  // namespace
}  // namespace counterguard

namespace counterguard {
namespace {

TEST(console_report, prints_a_blamed_cases_source_lines_under_the_table) {
  const std::string text = render_console_report(judge_run(test::sample_run_with_blame(), false));
  const auto heading = text.find(
      "source lines of transpose/naive?n=2048 (shared_store_bank_conflicts, against the per-line baseline):");
  ASSERT_NE(heading, std::string::npos) << text;
  EXPECT_NE(text.find("  transpose.cu:34  STS [R7], R8  shared excess wavefronts 0 -> 4063232", heading),
            std::string::npos)
      << text;
  EXPECT_EQ(render_console_report(judge_run(test::sample_run(), false)).find("source lines of"),
            std::string::npos);
}

}  // namespace
}  // namespace counterguard

namespace counterguard {
namespace {

kernel_measurement launch_of(const std::string& function, int index) {
  kernel_measurement launch;
  launch.function = function;
  launch.launch_index = index;
  return launch;
}

// A case with one launch: each baseline check comes once for the case total and once for the kernel.
run_results one_kernel_case_with_baseline_checks() {
  run_results results;
  case_result c;
  c.instance = "transpose/smem_unpadded?n=2048";
  c.suite = "transpose";
  c.kernels.push_back(launch_of("counterguard::kernels::transpose::smem_tile", 0));
  c.checks.push_back(
      test::make_check("shared_store_bank_conflicts", "== 4063232", 4063232, check_verdict::pass, false));
  check_outcome total = test::make_check("shared_store_bank_conflicts_hw",
                                         "33251.33 in [28774.92059073962, 39727.746075927054]",
                                         33312.123456789, check_verdict::pass, false, 33251.33);
  check_outcome per_kernel = total;
  per_kernel.kernel = "counterguard::kernels::transpose::smem_tile";
  c.checks.push_back(total);
  c.checks.push_back(per_kernel);
  results.cases.push_back(c);
  return results;
}

std::size_t rows_naming(const std::string& text, const std::string& metric) {
  std::size_t n = 0;
  for (const auto& line : lines_of(text))
    n += line.find(" " + metric + " ") != std::string::npos ? 1 : 0;
  return n;
}

TEST(console_report, a_one_kernel_case_prints_each_check_once) {
  const std::string text = render_console_report(judge_run(one_kernel_case_with_baseline_checks(), false));
  EXPECT_EQ(rows_naming(text, "shared_store_bank_conflicts_hw"), 1U) << text;
  EXPECT_EQ(text.find("[counterguard::kernels::transpose::smem_tile]"), std::string::npos) << text;
}

TEST(console_report, a_per_kernel_check_that_differs_from_its_total_is_still_printed) {
  run_results results = one_kernel_case_with_baseline_checks();
  results.cases[0].checks[2].verdict = check_verdict::regression;
  results.cases[0].checks[2].failing = true;
  const std::string text = render_console_report(judge_run(results, false));
  EXPECT_EQ(rows_naming(text, "shared_store_bank_conflicts_hw"), 2U) << text;  // the total and the kernel
  EXPECT_FALSE(row_of(text, "transpose/smem_unpadded?n=2048",
                      "shared_store_bank_conflicts_hw [counterguard::kernels::transpose::smem_tile]")
                   .empty())
      << text;
}

TEST(console_report, a_case_with_several_kernels_prints_a_row_per_kernel) {
  run_results results = one_kernel_case_with_baseline_checks();
  results.cases[0].kernels.push_back(launch_of("counterguard::kernels::transpose::smem_tile", 1));
  const std::string text = render_console_report(judge_run(results, false));
  EXPECT_EQ(rows_naming(text, "shared_store_bank_conflicts_hw"), 2U) << text;  // the total and the kernel
  EXPECT_FALSE(row_of(text, "transpose/smem_unpadded?n=2048",
                      "shared_store_bank_conflicts_hw [counterguard::kernels::transpose::smem_tile]")
                   .empty())
      << text;
}

TEST(console_report, prints_bands_and_measured_values_to_six_significant_digits) {
  const std::string text = render_console_report(judge_run(one_kernel_case_with_baseline_checks(), false));
  const std::string line = row_of(text, "transpose/smem_unpadded?n=2048", "shared_store_bank_conflicts_hw");
  EXPECT_NE(line.find("33251.3 in [28774.9, 39727.7]"), std::string::npos) << line;
  EXPECT_NE(line.find(" 33312.1 "), std::string::npos) << line;
  EXPECT_NE(line.find(" +60.7935 "), std::string::npos) << line;
  EXPECT_EQ(line.find("28774.92"), std::string::npos) << line;
  // Exact counts are never rounded.
  EXPECT_NE(row_of(text, "transpose/smem_unpadded?n=2048", "shared_store_bank_conflicts").find("4063232"),
            std::string::npos);
}

TEST(console_report, a_case_measured_without_checks_prints_every_value_per_launch_and_in_total) {
  // exec -k K --metric M: measured values and no expectation, shown as ncu shows them.
  run_results results;
  case_result selection;
  selection.instance = "exec/selection";
  for (int launch = 0; launch < 2; ++launch) {
    kernel_measurement kernel;
    kernel.function = "add_kernel";
    kernel.launch_index = launch;
    kernel.metrics["global_load_sectors"] = 262144;
    selection.kernels.push_back(kernel);
  }
  selection.totals["global_load_sectors"] = metric_value{524288, metric_class::exact};
  results.cases.push_back(selection);
  const std::string text = render_console_report(judge_run(results, false));
  EXPECT_NE(row_of(text, "exec/selection", "global_load_sectors [add_kernel #1]").find("262144"),
            std::string::npos)
      << text;
  const auto lines = lines_of(text);
  const bool total_row = std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
    return line.find("global_load_sectors  ") != std::string::npos &&
           line.find(" 524288 ") != std::string::npos && line.find("measured") != std::string::npos;
  });
  EXPECT_TRUE(total_row) << text;
}

TEST(console_report, a_case_with_checks_shows_its_checks_not_every_value) {
  const std::string text = render_console_report(judge_run(one_kernel_case_with_baseline_checks(), false));
  EXPECT_EQ(text.find("measured\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace counterguard
