// SPDX-License-Identifier: Apache-2.0
#pragma once
// Results in the formats benchmark dashboards read (`--export FORMAT FILE`, docs/cli.md "Dashboards"): every
// case total a case measured, one value per case instance and metric. Cases that were skipped or hit an error
// and values that are not finite are left out.

#include <optional>
#include <string>
#include <vector>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

enum class dashboard_format {
  bencher,                         // Bencher Metric Format (bencher run --adapter json)
  github_action_benchmark,         // github-action-benchmark, tool: customSmallerIsBetter
  github_action_benchmark_bigger,  // github-action-benchmark, tool: customBiggerIsBetter
};

// "bencher", "github-action-benchmark", "github-action-benchmark-bigger"; nothing for another name.
[[nodiscard]] std::optional<dashboard_format> parse_dashboard_format(const std::string& name);
[[nodiscard]] const char* dashboard_format_name(dashboard_format format);
[[nodiscard]] std::vector<std::string> dashboard_format_names();

// Bencher Metric Format: {"<instance>": {"<metric>": {"value": V}}}. The benchmark is the case instance, the
// measure the metric as the case named it (Bencher creates a measure for a name it does not know).
[[nodiscard]] std::string render_bencher_metrics(const run_results& results);

// github-action-benchmark's custom tools read an array of {"name", "unit", "value", "extra"}; one file holds
// one direction. `bigger_is_better` false: the metrics whose smaller values are better and those with no
// better direction (exact counts, where any change is news); true: those whose bigger values are better
// (occupancy, hit rates, threads per instruction). The name is "<instance> <metric>", the unit the metric
// catalogue's ("count" for a raw CUPTI name), `extra` the metric's class and the run's GPU key.
[[nodiscard]] std::string render_github_action_benchmark(const run_results& results, bool bigger_is_better);

// How many values render_github_action_benchmark leaves out of the file of the other direction.
[[nodiscard]] std::size_t github_action_benchmark_values(const run_results& results, bool bigger_is_better);

// The export's text in `format`.
[[nodiscard]] std::string render_dashboard_export(dashboard_format format, const run_results& results);

}  // namespace counterguard
