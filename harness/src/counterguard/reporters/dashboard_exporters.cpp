// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/dashboard_exporters.hpp"

#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>

#include "counterguard/metrics/metric_catalog.hpp"

namespace counterguard {
namespace {

// Calls `visit(case, metric, total)` for every exported case total, in run order.
void for_each_exported_total(
    const run_results& results,
    const std::function<void(const case_result&, const std::string&, const metric_value&)>& visit) {
  for (const case_result& c : results.cases) {
    if (c.status == case_status::skipped || c.status == case_status::error)
      continue;
    for (const auto& [metric, total] : c.totals) {
      if (std::isfinite(total.value))
        visit(c, metric, total);
    }
  }
}

bool bigger_is_better(const std::string& metric) {
  const std::optional<metric_definition> definition = metric_catalog::builtin().try_resolve(metric);
  return definition && definition->direction == metric_direction::higher_is_better;
}

std::string dashboard_unit(const std::string& metric) {
  const std::optional<metric_definition> definition = metric_catalog::builtin().try_resolve(metric);
  return definition && !definition->unit.empty() ? definition->unit : "count";
}

}  // namespace

std::optional<dashboard_format> parse_dashboard_format(const std::string& name) {
  for (const dashboard_format format : {dashboard_format::bencher, dashboard_format::github_action_benchmark,
                                        dashboard_format::github_action_benchmark_bigger}) {
    if (name == dashboard_format_name(format))
      return format;
  }
  return std::nullopt;
}

const char* dashboard_format_name(dashboard_format format) {
  switch (format) {
    case dashboard_format::bencher:
      return "bencher";
    case dashboard_format::github_action_benchmark:
      return "github-action-benchmark";
    case dashboard_format::github_action_benchmark_bigger:
      return "github-action-benchmark-bigger";
  }
  return "";
}

std::vector<std::string> dashboard_format_names() {
  return {dashboard_format_name(dashboard_format::bencher),
          dashboard_format_name(dashboard_format::github_action_benchmark),
          dashboard_format_name(dashboard_format::github_action_benchmark_bigger)};
}

std::string render_bencher_metrics(const run_results& results) {
  nlohmann::json document = nlohmann::json::object();
  for_each_exported_total(results,
                          [&](const case_result& c, const std::string& metric, const metric_value& v) {
                            document[c.instance][metric] = {{"value", v.value}};
                          });
  return document.dump(2) + "\n";
}

std::size_t github_action_benchmark_values(const run_results& results, bool bigger) {
  std::size_t count = 0;
  for_each_exported_total(results, [&](const case_result&, const std::string& metric, const metric_value&) {
    count += bigger_is_better(metric) == bigger ? 1 : 0;
  });
  return count;
}

std::string render_github_action_benchmark(const run_results& results, bool bigger) {
  nlohmann::json entries = nlohmann::json::array();
  for_each_exported_total(results,
                          [&](const case_result& c, const std::string& metric, const metric_value& v) {
                            if (bigger_is_better(metric) != bigger)
                              return;
                            std::string extra = std::string("class: ") + to_string(v.cls);
                            if (!results.metadata.gpu_key.empty())
                              extra += "\ngpu_key: " + results.metadata.gpu_key;
                            entries.push_back({{"name", c.instance + " " + metric},
                                               {"unit", dashboard_unit(metric)},
                                               {"value", v.value},
                                               {"extra", extra}});
                          });
  return entries.dump(2) + "\n";
}

std::string render_dashboard_export(dashboard_format format, const run_results& results) {
  switch (format) {
    case dashboard_format::bencher:
      return render_bencher_metrics(results);
    case dashboard_format::github_action_benchmark:
      return render_github_action_benchmark(results, false);
    case dashboard_format::github_action_benchmark_bigger:
      return render_github_action_benchmark(results, true);
  }
  return "";
}

}  // namespace counterguard
