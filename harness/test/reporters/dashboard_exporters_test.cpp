// SPDX-License-Identifier: Apache-2.0
// The shapes here are those each dashboard documents: Bencher Metric Format (bencher.dev, "Bencher Metric
// Format": benchmark -> measure -> {value, lower_value?, upper_value?}) and github-action-benchmark's custom
// tools (an array of {name, unit, value, range?, extra?}). cli.json_formats checks a whole run's exports
// against the published schema as well.
#include "counterguard/reporters/dashboard_exporters.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

namespace counterguard {
namespace {

run_results dashboard_sample_run() {
  run_results results;
  results.metadata.gpu_key = "GH100-132sm-cuda13";
  case_result c;
  c.instance = "transpose/smem?n=2048";
  c.status = case_status::failed;  // a failed case's values are exported too: the dashboard shows the change
  c.totals["shared_store_bank_conflicts"] = {4063232.0, metric_class::exact};
  c.totals["achieved_occupancy"] = {87.5, metric_class::noisy};
  c.totals["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = {524288.0, metric_class::exact};
  c.totals["duration_ns"] = {std::numeric_limits<double>::quiet_NaN(), metric_class::noisy};
  results.cases.push_back(c);
  case_result skipped;
  skipped.instance = "histogram/large";
  skipped.status = case_status::skipped;
  skipped.totals["shared_store_bank_conflicts"] = {0.0, metric_class::exact};
  results.cases.push_back(skipped);
  return results;
}

TEST(dashboard_exporters, bencher_metric_format_has_a_measure_per_metric_of_each_case_that_ran) {
  const nlohmann::json document = nlohmann::json::parse(render_bencher_metrics(dashboard_sample_run()));
  EXPECT_EQ(document, nlohmann::json::parse(R"({"transpose/smem?n=2048": {
      "achieved_occupancy": {"value": 87.5},
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": {"value": 524288},
      "shared_store_bank_conflicts": {"value": 4063232}}})"));
}

TEST(dashboard_exporters, github_action_benchmark_files_hold_one_direction_each) {
  const run_results results = dashboard_sample_run();
  const nlohmann::json smaller = nlohmann::json::parse(render_github_action_benchmark(results, false));
  const nlohmann::json bigger = nlohmann::json::parse(render_github_action_benchmark(results, true));
  EXPECT_EQ(smaller, nlohmann::json::parse(R"([
      {"name": "transpose/smem?n=2048 l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "unit": "count",
       "value": 524288, "extra": "class: exact\ngpu_key: GH100-132sm-cuda13"},
      {"name": "transpose/smem?n=2048 shared_store_bank_conflicts", "unit": "count", "value": 4063232,
       "extra": "class: exact\ngpu_key: GH100-132sm-cuda13"}])"));
  ASSERT_EQ(bigger.size(), 1U);
  EXPECT_EQ(bigger[0]["name"], "transpose/smem?n=2048 achieved_occupancy");
  EXPECT_EQ(bigger[0]["unit"], "%");
  EXPECT_EQ(github_action_benchmark_values(results, true), 1U);
  EXPECT_EQ(github_action_benchmark_values(results, false), 2U);
}

TEST(dashboard_exporters, formats_are_named_as_the_command_line_takes_them) {
  for (const auto& name : dashboard_format_names()) {
    const auto format = parse_dashboard_format(name);
    ASSERT_TRUE(format) << name;
    EXPECT_EQ(dashboard_format_name(*format), name);
  }
  EXPECT_FALSE(parse_dashboard_format("codspeed"));
}

}  // namespace
}  // namespace counterguard
