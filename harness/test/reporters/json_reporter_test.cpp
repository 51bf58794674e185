// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/json_reporter.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "report_test_support.hpp"

namespace counterguard {
namespace {

TEST(json_report, is_the_results_json_plus_a_summary) {
  const nlohmann::json report = make_json_report(judge_run(test::sample_run(), false));
  EXPECT_EQ(report.at("schema_version"), results_schema_version);
  EXPECT_EQ(report.at("cases").size(), 4U);
  EXPECT_EQ(report.at("summary").at("failed"), 1);
  EXPECT_EQ(report.at("summary").at("checks").at("regression"), 1);
  EXPECT_EQ(report.at("summary").at("exit_code"), 1);
}

TEST(json_report, reads_back_as_run_results) {
  const nlohmann::json report = make_json_report(judge_run(test::sample_run(), false));
  const auto back = report.get<run_results>();
  EXPECT_EQ(back.cases[1].checks[1].verdict, check_verdict::regression);
}

TEST(json_report, is_written_to_a_file) {
  std::string directory = "/tmp/counterguard-json-XXXXXX";
  ASSERT_NE(::mkdtemp(directory.data()), nullptr);
  const std::string path = directory + "/results.json";
  write_json_report(path, judge_run(test::sample_run(), false));
  std::ifstream in(path);
  const nlohmann::json read = nlohmann::json::parse(in);
  EXPECT_EQ(read.at("summary").at("cases"), 4);
}

TEST(json_report, of_a_run_that_profiled_nothing_counts_the_counter_checks_not_run_and_says_why) {
  const nlohmann::json report =
      nlohmann::json::parse(render_json_report(judge_run(test::static_only_run(), false)));
  EXPECT_EQ(report["summary"]["counter_checks_not_run"], 5);
  EXPECT_EQ(report["summary"]["static_checks_only"], "static checks only: 5 counter checks not run: no GPU");
  EXPECT_EQ(report["metadata"]["counters_not_run"], "no GPU");
  EXPECT_EQ(report["cases"][0]["counter_checks_not_run"], 5);
  const run_results back = read_run_results(report, "report.json");
  EXPECT_EQ(back.cases[0].counter_checks_not_run, 5U);
  EXPECT_EQ(back.metadata.counters_not_run, "no GPU");
}

}  // namespace
}  // namespace counterguard
