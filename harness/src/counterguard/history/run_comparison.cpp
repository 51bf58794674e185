// SPDX-License-Identifier: Apache-2.0
#include "counterguard/history/run_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/history/noise_estimate.hpp"

namespace counterguard {
namespace {

// The slack baseline checks give exact values: a ratio recomputed in floating point still compares equal.
constexpr double relative_epsilon = 1e-9;

std::optional<double> finite_value(const case_values* values, const std::string& kernel,
                                   const std::string& metric, metric_class* cls) {
  if (values == nullptr)
    return std::nullopt;
  const auto k = values->kernels.find(kernel);
  if (k == values->kernels.end())
    return std::nullopt;
  const auto m = k->second.find(metric);
  if (m == k->second.end() || !std::isfinite(m->second.value))
    return std::nullopt;
  *cls = m->second.cls;
  return m->second.value;
}

// Kernel keys with the case total first, then by name.
std::vector<std::string> kernel_keys(const case_values* a, const case_values* b) {
  std::set<std::string> keys;
  for (const auto* side : {a, b}) {
    if (side == nullptr)
      continue;
    for (const auto& [key, metrics] : side->kernels)
      keys.insert(key);
  }
  std::vector<std::string> ordered(keys.begin(), keys.end());
  std::stable_partition(ordered.begin(), ordered.end(),
                        [](const std::string& k) { return k == baseline_total_key; });
  return ordered;
}

std::set<std::string> metric_names(const case_values* a, const case_values* b, const std::string& kernel) {
  std::set<std::string> names;
  for (const auto* side : {a, b}) {
    if (side == nullptr)
      continue;
    const auto k = side->kernels.find(kernel);
    if (k == side->kernels.end())
      continue;
    for (const auto& [metric, reading] : k->second)
      names.insert(metric);
  }
  return names;
}

void judge(metric_change& change, const noise_history& history, const comparison_options& options) {
  const double a = *change.a;
  const double b = *change.b;
  change.delta = b - a;
  if (a != 0.0)
    change.relative = *change.delta / std::abs(a);
  if (std::abs(*change.delta) <= relative_epsilon * std::max(std::abs(a), 1e-12)) {
    change.finding = change_finding::unchanged;
    return;
  }
  if (change.cls != metric_class::noisy) {
    change.finding = change_finding::changed;
    return;
  }
  change.finding = change_finding::no_noise_estimate;
  if (!history)
    return;
  const std::vector<double> earlier = history(change.instance, change.kernel, change.metric);
  change.noise_samples = static_cast<std::size_t>(
      std::count_if(earlier.begin(), earlier.end(), [](double v) { return std::isfinite(v); }));
  const auto spread = estimate_spread(earlier, options.minimum_noise_samples);
  if (!spread)
    return;
  change.noise_sigma = spread->sigma;
  change.z = change_z_score(*change.delta, spread->sigma);
  change.finding = std::abs(*change.z) >= options.z_threshold ? change_finding::likely_change
                                                              : change_finding::within_noise;
}

}  // namespace

const char* to_string(change_finding finding) {
  switch (finding) {
    case change_finding::unchanged:
      return "unchanged";
    case change_finding::changed:
      return "changed";
    case change_finding::within_noise:
      return "within_noise";
    case change_finding::likely_change:
      return "likely_change";
    case change_finding::no_noise_estimate:
      return "no_noise_estimate";
    case change_finding::only_in_a:
      return "only_in_a";
    case change_finding::only_in_b:
      return "only_in_b";
  }
  return "unchanged";
}

std::size_t run_comparison::count(change_finding finding) const {
  return static_cast<std::size_t>(std::count_if(
      metrics.begin(), metrics.end(), [&](const metric_change& m) { return m.finding == finding; }));
}

std::size_t run_comparison::flagged() const {
  return static_cast<std::size_t>(
      std::count_if(metrics.begin(), metrics.end(), [](const metric_change& m) { return m.flagged(); }));
}

run_comparison compare_runs(const comparison_side& a, const comparison_side& b, const noise_history& history,
                            const comparison_options& options) {
  run_comparison comparison;
  comparison.a_label = a.label;
  comparison.b_label = b.label;
  comparison.a_run_id = a.history_run_id;
  comparison.b_run_id = b.history_run_id;
  comparison.a_metadata = a.values.metadata;
  comparison.b_metadata = b.values.metadata;
  comparison.history_consulted = static_cast<bool>(history);
  comparison.z_threshold = options.z_threshold;

  std::map<std::string, const case_values*> in_a;
  for (const auto& c : a.values.cases)
    in_a.emplace(c.instance, &c);
  std::set<std::string> in_b;
  for (const auto& c : b.values.cases)
    in_b.insert(c.instance);
  for (const auto& c : a.values.cases) {
    if (in_b.count(c.instance) == 0)
      comparison.cases_only_in_a.push_back(c.instance);
  }

  // B's order: the newer run decides how the suites read.
  for (const auto& cb : b.values.cases) {
    const auto found = in_a.find(cb.instance);
    if (found == in_a.end()) {
      comparison.cases_only_in_b.push_back(cb.instance);
      continue;
    }
    const case_values* ca = found->second;
    if (ca->status != cb.status)
      comparison.status_changes.push_back({cb.instance, ca->status, cb.status});
    for (const auto& kernel : kernel_keys(ca, &cb)) {
      for (const auto& metric : metric_names(ca, &cb, kernel)) {
        metric_change change;
        change.instance = cb.instance;
        change.kernel = kernel;
        change.metric = metric;
        metric_class class_a = metric_class::exact;
        metric_class class_b = metric_class::exact;
        change.a = finite_value(ca, kernel, metric, &class_a);
        change.b = finite_value(&cb, kernel, metric, &class_b);
        if (!change.a && !change.b)
          continue;  // measured on neither side
        change.cls = change.b ? class_b : class_a;
        if (!change.b) {
          change.finding = change_finding::only_in_a;
        } else if (!change.a) {
          change.finding = change_finding::only_in_b;
        } else {
          judge(change, history, options);
        }
        comparison.metrics.push_back(std::move(change));
      }
    }
  }
  return comparison;
}

}  // namespace counterguard
