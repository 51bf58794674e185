// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_update.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "counterguard/baselines/baseline_comparison.hpp"
#include "counterguard/baselines/gpu_key.hpp"
#include "counterguard/baselines/sample_statistics.hpp"
#include "counterguard/core/value_format.hpp"

namespace counterguard {
namespace {

// Why a case of one repetition cannot be recorded, or empty when it can.
std::string unusable_reason(const case_result& result) {
  if (result.status == case_status::skipped)
    return "skipped: " + result.status_reason;
  if (result.status == case_status::error)
    return "error: " + result.status_reason;
  if (result.verified && !*result.verified)
    return "wrong output: " + result.verification_message;
  // A case of a program (`exec`) whose selector matched no launch measured nothing: recording it would
  // remove its entries (a mistyped selector must not wipe its baselines).
  for (const auto& check : result.checks) {
    if (check.origin == "selection" && check.failing)
      return "selected no kernel launch";
  }
  return {};
}

// "instance (kernel) metric: 4, 4.5, 4: an exact metric that varied between repetitions".
std::string fmt_varying(const std::string& instance, const std::string& kernel, const std::string& metric,
                        const std::vector<double>& values) {
  std::string text =
      instance + (kernel == baseline_total_key ? "" : " (" + kernel + ")") + " " + metric + ":";
  for (std::size_t i = 0; i < values.size(); ++i)
    text += (i == 0 ? " " : ", ") + format_value(values[i]);
  return text;
}

// Whether the repetitions of one metric differ (non-finite ones skipped).
bool values_vary(const std::vector<double>& values) {
  std::optional<double> first;
  for (const double v : values) {
    if (!std::isfinite(v))
      continue;
    if (!first)
      first = v;
    else if (v != *first)
      return true;
  }
  return false;
}

}  // namespace

baseline_update_result update_baseline(const std::optional<baseline_file>& existing, const std::string& suite,
                                       const std::vector<run_results>& repetitions,
                                       const metric_classifier& classify, const std::string& existing_path) {
  return update_baseline(existing, suite, repetitions, classify, baseline_refresh_options{}, existing_path);
}

baseline_update_result update_baseline(const std::optional<baseline_file>& existing, const std::string& suite,
                                       const std::vector<run_results>& repetitions,
                                       const metric_classifier& classify,
                                       const baseline_refresh_options& options,
                                       const std::string& existing_path) {
  baseline_update_result update;
  update.file = existing.value_or(baseline_file{});
  update.file.suite = suite;
  if (repetitions.empty())
    return update;

  const run_metadata& metadata = repetitions.front().metadata;
  const std::string key = metadata.gpu_key.empty() ? make_gpu_key(metadata.device) : metadata.gpu_key;
  if (existing)
    require_same_gpu_key(*existing, existing_path.empty() ? suite + ".yaml" : existing_path, key);
  update.file.gpu_key = key;

  // instance -> kernel key -> metric -> the values of every repetition.
  std::map<std::string, std::map<std::string, std::map<std::string, std::vector<double>>>> samples;
  // (instance, metric) -> class the run reported for the case total: a case may declare a metric noisy
  // that is exact elsewhere (contended shared atomics), so the class belongs to the instance.
  std::map<std::pair<std::string, std::string>, metric_class> reported_class;
  std::map<std::string, std::string> rejected;  // instance -> why
  for (const auto& run : repetitions) {
    for (const auto& result : run.cases) {
      if (result.suite != suite)
        continue;
      const std::string why = unusable_reason(result);
      if (!why.empty()) {
        rejected.emplace(result.instance, why);
        continue;
      }
      for (const auto& [metric, value] : result.totals)
        reported_class.emplace(std::make_pair(result.instance, metric), value.cls);
      auto& instance = samples[result.instance];
      for (const auto& [kernel, metrics] : measured_by_kernel_key(result)) {
        for (const auto& [metric, value] : metrics)
          instance[kernel][metric].push_back(value);
      }
    }
  }
  for (const auto& [instance, why] : rejected) {
    update.not_recorded.push_back(instance + ": " + why);
    samples.erase(instance);
  }
  if (samples.empty())
    return update;

  update.file.schema_version = baseline_schema_version;
  update.file.metadata = {metadata.device.name,
                          metadata.device.driver_version,
                          metadata.device.cuda_runtime_version,
                          metadata.device.cupti_version,
                          metadata.started_at,
                          metadata.git_commit,
                          metadata.counterguard_version};

  for (const auto& [instance, kernels] : samples) {
    update.measured.push_back(instance);
    const baseline_case before = update.file.cases[instance];  // empty when new
    baseline_case after;
    for (const auto& [kernel, metrics] : kernels) {
      for (const auto& [metric, values] : metrics) {
        if (std::none_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); }))
          continue;  // measured in no repetition: nothing to record
        metric_traits traits = classify(metric);
        const auto reported = reported_class.find(std::make_pair(instance, metric));
        metric_class cls = reported != reported_class.end() ? reported->second : traits.cls;
        if (cls == metric_class::exact && options.varying_exact_as_noisy && values_vary(values)) {
          // An exact check of a value that differs between identical runs would fail at random: judged by
          // the noise model's band instead, and said so in the change summary.
          cls = metric_class::noisy;
          traits.noise = noise_kind::relative;
          update.recorded_as_noisy.push_back(fmt_varying(instance, kernel, metric, values));
        }
        baseline_entry entry = make_baseline_entry(values, cls, traits.direction, traits.noise);
        if (entry.cls == metric_class::noisy)
          entry.absolute_floor = traits.absolute_floor;
        const baseline_entry* old_entry = nullptr;
        const auto old_kernel = before.find(kernel);
        if (old_kernel != before.end()) {
          const auto old = old_kernel->second.find(metric);
          if (old != old_kernel->second.end()) {
            old_entry = &old->second;
            // Tolerances, floors, noise kinds and false-alarm rates are decisions a human wrote into the
            // file: keep them.
            entry.tolerance = old->second.tolerance;
            if (old->second.absolute_floor)
              entry.absolute_floor = old->second.absolute_floor;
            entry.false_alarm_rate = old->second.false_alarm_rate;
            if (old->second.noise && entry.cls == metric_class::noisy)
              entry.noise = old->second.noise;
          }
        }
        entry_refresh_inputs inputs{instance, kernel, metric, values, {}, entry, old_entry};
        if (entry.cls == metric_class::noisy && options.earlier_values)
          inputs.earlier = options.earlier_values(instance, kernel, metric);
        const entry_refresh_outcome refreshed = refresh_baseline_entry(inputs, options);
        update.kept += refreshed.kept ? 1 : 0;
        update.earlier_used += static_cast<std::size_t>(refreshed.earlier_used);
        update.earlier_left_out += static_cast<std::size_t>(refreshed.earlier_left_out);
        after[kernel][metric] = refreshed.entry;
      }
    }
    // The change list, in file order: kernels and metrics of both versions.
    std::set<std::string> kernel_keys;
    for (const auto& item : before)
      kernel_keys.insert(item.first);
    for (const auto& item : after)
      kernel_keys.insert(item.first);
    std::vector<std::string> ordered(kernel_keys.begin(), kernel_keys.end());
    std::stable_partition(ordered.begin(), ordered.end(),
                          [](const auto& k) { return k == baseline_total_key; });
    for (const auto& kernel : ordered) {
      std::set<std::string> metric_names;
      const auto b = before.find(kernel);
      const auto a = after.find(kernel);
      if (b != before.end()) {
        for (const auto& item : b->second)
          metric_names.insert(item.first);
      }
      if (a != after.end()) {
        for (const auto& item : a->second)
          metric_names.insert(item.first);
      }
      for (const auto& metric : metric_names) {
        baseline_change change{
            baseline_change::kind::changed, instance, kernel, metric, std::nullopt, std::nullopt};
        if (b != before.end() && b->second.count(metric) != 0)
          change.before = b->second.at(metric);
        if (a != after.end() && a->second.count(metric) != 0)
          change.after = a->second.at(metric);
        if (change.before && change.after && *change.before == *change.after)
          continue;
        if (!change.before)
          change.what = baseline_change::kind::added;
        if (!change.after)
          change.what = baseline_change::kind::removed;
        update.changes.push_back(std::move(change));
      }
    }
    update.file.cases[instance] = std::move(after);
  }
  return update;
}

}  // namespace counterguard
