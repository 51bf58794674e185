// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/csv_reporter.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>

namespace counterguard {
namespace {

run_results csv_sample_run() {
  run_results results;
  case_result passed;
  passed.instance = "transpose/smem?pad=1,n=2048";
  passed.suite = "transpose";
  passed.case_name = "smem";
  passed.status = case_status::passed;
  passed.totals["shared_store_bank_conflicts"] = {0.0, metric_class::exact};
  passed.totals["dram_read_bytes"] = {1048576.5, metric_class::noisy};
  check_outcome check;
  check.metric = "shared_store_bank_conflicts";
  check.origin = "expectation";
  check.expected = "== 0";
  check.measured = 0.0;
  check.message =
      "transpose/smem?pad=1,n=2048: shared_store_bank_conflicts expected == 0, measured 0 "
      "(cases/transpose.yaml:12:7)";
  passed.checks.push_back(check);
  results.cases.push_back(passed);

  case_result skipped;
  skipped.instance = "histogram/large";
  skipped.suite = "histogram";
  skipped.case_name = "large";
  skipped.status = case_status::skipped;
  skipped.status_reason = "needs \"256 KB\" of shared memory";
  results.cases.push_back(skipped);
  return results;
}

std::vector<std::string> csv_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    EXPECT_EQ(line.back(), '\r') << "RFC 4180 line ends are CRLF";
    line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

TEST(csv_reporter, one_row_per_check_per_unchecked_total_and_per_case_without_either) {
  const auto lines = csv_lines(render_csv_report(csv_sample_run()));
  ASSERT_EQ(lines.size(), 4U);
  EXPECT_EQ(lines[0], csv_report_header);
  EXPECT_EQ(
      lines[1],
      "\"transpose/"
      "smem?pad=1,n=2048\",transpose,smem,passed,,shared_store_bank_conflicts,exact,0,expectation,"
      "== 0,,pass,false,\"transpose/smem?pad=1,n=2048: shared_store_bank_conflicts expected == 0, measured 0 "
      "(cases/transpose.yaml:12:7)\"");
  EXPECT_EQ(lines[2],
            "\"transpose/smem?pad=1,n=2048\",transpose,smem,passed,,dram_read_bytes,noisy,1048576.5,"
            "measured,,,,,");
  EXPECT_EQ(lines[3],
            "histogram/large,histogram,large,skipped,,,,,,,,,,\"needs \"\"256 KB\"\" of shared memory\"");
}

TEST(csv_reporter, a_value_that_was_not_measured_or_is_not_finite_is_an_empty_field) {
  run_results results = csv_sample_run();
  results.cases[0].checks[0].measured.reset();
  results.cases[0].totals["dram_read_bytes"].value = std::numeric_limits<double>::quiet_NaN();
  const auto lines = csv_lines(render_csv_report(results));
  EXPECT_NE(lines[1].find(",exact,,expectation,"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find(",noisy,,measured,"), std::string::npos) << lines[2];
}

TEST(csv_reporter, numbers_keep_full_precision) {
  run_results results = csv_sample_run();
  results.cases[0].totals["dram_read_bytes"].value = 0.1 + 0.2;
  const auto lines = csv_lines(render_csv_report(results));
  EXPECT_NE(lines[2].find(",0.30000000000000004,"), std::string::npos) << lines[2];
}

}  // namespace
}  // namespace counterguard
