// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "counterguard/baselines/noise_model.hpp"
#include "counterguard/baselines/prediction_band.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/value_format.hpp"

namespace counterguard {
namespace {

// Same slack as expectations: a ratio recomputed in floating point still compares equal.
constexpr double relative_epsilon = 1e-9;

double epsilon_of(double value) {
  return relative_epsilon * std::max(std::abs(value), 1e-12);
}

// d2(n): the expected range of n standard normal samples, for an unbiased standard deviation from the
// [min, max] of a version 1 entry (range / d2). Beyond 10 samples d2(10) over-estimates the sd: conservative.
double expected_normal_range(int n) {
  static constexpr double d2[] = {0.0, 0.0, 1.128, 1.693, 2.059, 2.326, 2.534, 2.704, 2.847, 2.970, 3.078};
  return d2[std::clamp(n, 0, 10)];
}

bool is_zero_baseline(const baseline_entry& entry) {
  return entry.min == 0.0 && entry.max == 0.0;
}

std::string percent(double fraction) {
  return format_value(fraction * 100.0) + "%";
}

std::string expected_text(const baseline_entry& entry, const baseline_band& band) {
  if (is_zero_baseline(entry))
    return "0 (must stay 0)";
  if (entry.cls != metric_class::noisy) {
    if (!entry.tolerance || *entry.tolerance == 0.0)
      return format_value(entry.value) + " (exact)";
    return format_value(entry.value) + " (±" + percent(*entry.tolerance) + ")";
  }
  return format_value(entry.value) + " in [" + format_value(band.low) + ", " + format_value(band.high) + "]";
}

std::string delta_text(double baseline, double measured) {
  const double delta = measured - baseline;
  std::string text = (delta >= 0 ? "+" : "") + format_value(delta);
  if (baseline != 0.0) {
    const double relative = std::round(delta / std::abs(baseline) * 1000.0) / 10.0;
    text += ", " + std::string(relative >= 0 ? "+" : "") + format_value(relative) + "%";
  }
  return text;
}

std::string subject(const std::string& instance, const std::string& kernel_key, const std::string& metric) {
  std::string text = instance + ": " + metric;
  if (kernel_key != baseline_total_key)
    text += " [kernel " + kernel_key + "]";
  return text;
}

}  // namespace

baseline_band version_1_noisy_band(const baseline_entry& entry, const baseline_comparison_options& options) {
  const double tolerance = entry.tolerance.value_or(options.noisy_tolerance);
  const double floor = entry.absolute_floor.value_or(options.noisy_absolute_floor);
  auto widening = [&](double bound) {
    return std::max({tolerance * std::abs(bound), floor, epsilon_of(bound)});
  };
  return {entry.min - widening(entry.min), entry.max + widening(entry.max)};
}

baseline_band acceptance_band(const baseline_entry& entry, const baseline_comparison_options& options,
                              const std::string& metric) {
  if (entry.cls != metric_class::noisy) {
    const double slack =
        std::max(entry.tolerance.value_or(0.0) * std::abs(entry.value), epsilon_of(entry.value));
    return {entry.value - slack, entry.value + slack};
  }
  const bool has_statistics = entry.mean.has_value() && entry.sd.has_value();
  prediction_band_request request;
  request.n = std::max(entry.n, 1);
  if (has_statistics) {
    request.mean = *entry.mean;
    request.sd = *entry.sd;
  } else {
    // Version 1: no mean and sd were recorded; centre on the median, estimate the sd from the range.
    request.mean = entry.value;
    request.sd = request.n >= 2 ? (entry.max - entry.min) / expected_normal_range(request.n) : 0.0;
  }
  const noise_kind kind = entry.noise ? *entry.noise : noise_kind_of_metric(metric);
  request.model_sd = model_noise_sd(kind, request.mean);
  request.false_alarm_rate = entry.false_alarm_rate.value_or(options.false_alarm_rate);
  request.two_sided = entry.direction == metric_direction::exact;
  const prediction_band band = noisy_prediction_band(request);
  // A tolerance or floor a human wrote into the entry widens the band, never narrows it.
  const double half_width = std::max({band.half_width, entry.tolerance.value_or(0.0) * std::abs(request.mean),
                                      entry.absolute_floor.value_or(0.0), epsilon_of(request.mean)});
  baseline_band result{request.mean - half_width, request.mean + half_width};
  if (!has_statistics) {
    // Conservative for version 1 entries: never narrower than the band version 1 gave them.
    const baseline_band old = version_1_noisy_band(entry, options);
    result.low = std::min(result.low, old.low);
    result.high = std::max(result.high, old.high);
  }
  return result;
}

check_outcome compare_with_baseline(const std::string& instance, const std::string& kernel_key,
                                    const std::string& metric, const baseline_entry& entry, double measured,
                                    const baseline_comparison_options& options) {
  const baseline_band band = acceptance_band(entry, options, metric);
  check_outcome outcome;
  outcome.metric = metric;
  outcome.kernel = kernel_key == baseline_total_key ? std::string() : kernel_key;
  outcome.origin = "baseline";
  outcome.expected = expected_text(entry, band);
  outcome.measured = measured;
  outcome.baseline = entry.value;
  const std::string who = subject(instance, kernel_key, metric);

  if (std::isnan(measured)) {
    outcome.verdict = check_verdict::missing;
    outcome.failing = true;
    outcome.message = who + ": measured no value (NaN); baseline " + format_value(entry.value);
    return outcome;
  }

  // -1: below the accepted values, +1: above, 0: accepted.
  int side = 0;
  if (is_zero_baseline(entry)) {
    side = measured > 0.0 ? 1 : (measured < 0.0 ? -1 : 0);
  } else if (measured > band.high) {
    side = 1;
  } else if (measured < band.low) {
    side = -1;
  }
  if (side == 0) {
    outcome.verdict = check_verdict::pass;
    outcome.message = who + ": measured " + format_value(measured) + ", baseline " + outcome.expected;
    return outcome;
  }
  bool worse = true;
  if (entry.direction == metric_direction::lower_is_better)
    worse = side > 0;
  if (entry.direction == metric_direction::higher_is_better)
    worse = side < 0;

  const std::string change = "measured " + format_value(measured) + " (" + delta_text(entry.value, measured) +
                             "), baseline " + outcome.expected;
  if (worse) {
    outcome.verdict = check_verdict::regression;
    outcome.failing = true;
    outcome.message = who + ": regression: " + change;
  } else {
    outcome.verdict = check_verdict::improvement;
    outcome.failing = options.strict;
    outcome.message = who + ": improvement: " + change + "; record it with 'counterguard baseline update'";
  }
  return outcome;
}

std::map<std::string, std::map<std::string, double>> measured_by_kernel_key(const case_result& result) {
  std::map<std::string, std::map<std::string, double>> measured;
  if (!result.totals.empty()) {
    auto& total = measured[baseline_total_key];
    for (const auto& [metric, value] : result.totals)
      total[metric] = value.value;
  }
  std::vector<const kernel_measurement*> launches;
  for (const auto& launch : result.kernels)
    launches.push_back(&launch);
  std::stable_sort(launches.begin(), launches.end(),
                   [](const auto* a, const auto* b) { return a->launch_index < b->launch_index; });
  std::map<std::string, int> occurrences;
  for (const auto* launch : launches) {
    auto& metrics = measured[kernel_key(launch->function, occurrences[launch->function]++)];
    for (const auto& [metric, value] : launch->metrics)
      metrics[metric] = value;
  }
  return measured;
}

std::vector<check_outcome> compare_case_with_baseline(const case_result& result,
                                                      const baseline_case* baseline,
                                                      const baseline_comparison_options& options) {
  std::vector<check_outcome> outcomes;
  const auto measured = measured_by_kernel_key(result);
  for (const auto& [key, metrics] : measured) {
    const baseline_metrics* entries = nullptr;
    if (baseline != nullptr) {
      const auto found = baseline->find(key);
      if (found != baseline->end())
        entries = &found->second;
    }
    for (const auto& [metric, value] : metrics) {
      const baseline_entry* entry = nullptr;
      if (entries != nullptr) {
        const auto found = entries->find(metric);
        if (found != entries->end())
          entry = &found->second;
      }
      if (entry != nullptr) {
        outcomes.push_back(compare_with_baseline(result.instance, key, metric, *entry, value, options));
        continue;
      }
      check_outcome outcome;
      outcome.metric = metric;
      outcome.kernel = key == baseline_total_key ? std::string() : key;
      outcome.origin = "baseline";
      outcome.expected = "(no baseline)";
      outcome.measured = value;
      outcome.verdict = check_verdict::new_metric;
      outcome.message = subject(result.instance, key, metric) + ": measured " + format_value(value) +
                        ", no baseline yet; record it with 'counterguard baseline update'";
      outcomes.push_back(std::move(outcome));
    }
  }
  if (baseline == nullptr)
    return outcomes;
  for (const auto& [key, entries] : *baseline) {
    const auto kernel = measured.find(key);
    for (const auto& [metric, entry] : entries) {
      if (kernel != measured.end() && kernel->second.count(metric) != 0)
        continue;
      check_outcome outcome;
      outcome.metric = metric;
      outcome.kernel = key == baseline_total_key ? std::string() : key;
      outcome.origin = "baseline";
      outcome.expected = format_value(entry.value);
      outcome.baseline = entry.value;
      outcome.verdict = check_verdict::missing;
      outcome.failing = options.strict;
      outcome.message =
          subject(result.instance, key, metric) + ": has a baseline (" + format_value(entry.value) +
          ") but was not measured" +
          (kernel == measured.end() && key != baseline_total_key ? " (the kernel was not profiled)" : "") +
          "; drop it with 'counterguard baseline update'";
      outcomes.push_back(std::move(outcome));
    }
  }
  return outcomes;
}

void require_same_gpu_key(const baseline_file& file, const std::string& path,
                          const std::string& device_gpu_key) {
  if (file.gpu_key == device_gpu_key)
    return;
  throw input_error(source_location{path, 0, 0}, "gpu_key",
                    "baseline recorded on GPU key '" + file.gpu_key +
                        "' cannot be compared with this device's key '" + device_gpu_key +
                        "' (counters differ between chips, SM counts and CUDA versions)",
                    "use the baselines under '" + device_gpu_key +
                        "/', or record them there with 'counterguard baseline update'");
}

void apply_baselines(run_results& results, const std::map<std::string, baseline_file>& baselines,
                     const std::map<std::string, std::string>& paths,
                     const baseline_comparison_options& options) {
  for (const auto& [suite, file] : baselines) {
    const auto path = paths.find(suite);
    require_same_gpu_key(file, path == paths.end() ? suite : path->second, results.metadata.gpu_key);
  }
  for (auto& result : results.cases) {
    if (result.status == case_status::skipped || result.status == case_status::error)
      continue;
    const baseline_case* baseline = nullptr;
    const auto file = baselines.find(result.suite);
    if (file != baselines.end()) {
      const auto found = file->second.cases.find(result.instance);
      if (found != file->second.cases.end())
        baseline = &found->second;
    }
    auto outcomes = compare_case_with_baseline(result, baseline, options);
    result.checks.insert(result.checks.end(), outcomes.begin(), outcomes.end());
  }
}

void apply_baseline_directory(run_results& results, const std::string& directory,
                              const baseline_comparison_options& options) {
  std::set<std::string> suites;
  for (const auto& c : results.cases)
    suites.insert(c.suite);
  std::map<std::string, baseline_file> files;
  std::map<std::string, std::string> paths;
  for (const auto& suite : suites) {
    const std::string path = baseline_path(directory, results.metadata.gpu_key, suite);
    if (auto file = load_baseline_file(path)) {
      files.emplace(suite, std::move(*file));
      paths.emplace(suite, path);
    }
  }
  apply_baselines(results, files, paths, options);
}

}  // namespace counterguard
