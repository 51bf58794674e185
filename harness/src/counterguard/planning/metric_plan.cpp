// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/metric_plan.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "counterguard/core/error.hpp"
#include "counterguard/core/name_suggestions.hpp"

namespace counterguard {

bool metric_plan::needs_gpu() const {
  return std::any_of(metrics.begin(), metrics.end(),
                     [](const metric_definition& m) { return m.source != metric_source::compiler; });
}

metric_plan plan_metrics(const case_instance& instance, const metric_catalog& catalog,
                         const std::vector<std::string>& extra_metrics) {
  metric_plan plan;
  std::set<std::string> seen;
  std::set<std::string> raw;
  auto add = [&](const std::string& name, const std::optional<metric_class>& declared) {
    if (!seen.insert(name).second)
      return;
    metric_definition definition = catalog.resolve(name);
    // A case may know better than the catalog (contended atomics are not exact): its class is reported.
    if (declared)
      definition.cls = *declared;
    // A metric the kernel reports itself (kernel_run::runtime_metrics) needs no counters.
    if (definition.source == metric_source::cupti)
      raw.insert(definition.raw_inputs.begin(), definition.raw_inputs.end());
    plan.metrics.push_back(std::move(definition));
  };
  for (const auto& expectation : instance.expectations)
    add(expectation.metric, expectation.cls);
  for (const auto& name : instance.measured_metrics)
    add(name, std::nullopt);
  for (const auto& name : extra_metrics)
    add(name, std::nullopt);
  plan.raw_cupti.assign(raw.begin(), raw.end());
  return plan;
}

metric_plan plan_metrics(const std::vector<std::string>& metrics, const metric_catalog& catalog) {
  for (const auto& name : metrics) {
    if (!catalog.try_resolve(name)) {
      throw input_error({}, "metrics", metric_catalog::unknown_metric_problem(name),
                        did_you_mean(name, catalog.closest_aliases(name)) +
                            "a metric is an alias from docs/metrics.md, one of ncu's launch__ or "
                            "device__attribute_ names listed there, or a raw CUPTI name");
    }
  }
  case_instance bare;
  return plan_metrics(bare, catalog, metrics);
}

bool measures_noisy_metric(const case_instance& instance, const metric_plan& plan) {
  for (const auto& expectation : instance.expectations) {
    if (expectation.cls == metric_class::noisy)
      return true;
  }
  return std::any_of(plan.metrics.begin(), plan.metrics.end(),
                     [](const metric_definition& metric) { return metric.cls == metric_class::noisy; });
}

}  // namespace counterguard
