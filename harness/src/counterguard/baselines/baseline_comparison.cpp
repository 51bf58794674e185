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

// -1: below the accepted values, +1: above, 0: accepted. A zero baseline accepts nothing but 0.
int side_of_band(const baseline_entry& entry, const baseline_band& band, double measured) {
  if (is_zero_baseline(entry))
    return measured > 0.0 ? 1 : (measured < 0.0 ? -1 : 0);
  if (measured > band.high)
    return 1;
  return measured < band.low ? -1 : 0;
}

// What a measurement is against its band, decided before anything is worded.
check_verdict baseline_verdict(const baseline_entry& entry, const baseline_band& band, double measured) {
  if (std::isnan(measured))
    return check_verdict::missing;
  const int side = side_of_band(entry, band, measured);
  if (side == 0)
    return check_verdict::pass;
  bool worse = true;
  if (entry.direction == metric_direction::lower_is_better)
    worse = side > 0;
  if (entry.direction == metric_direction::higher_is_better)
    worse = side < 0;
  return worse ? check_verdict::regression : check_verdict::improvement;
}

// A baseline check of `metric` under `kernel_key`, before anything is decided about it.
check_outcome baseline_check(const std::string& kernel_key, const std::string& metric) {
  check_outcome check;
  check.metric = metric;
  check.kernel = kernel_key == baseline_total_key ? std::string() : kernel_key;
  check.origin = "baseline";
  return check;
}

// The one line a decided baseline check reads as, from its verdict, numbers and expected text.
// `kernel_profiled` matters to an entry that was not measured only: it says whether its kernel ran at all.
std::string baseline_message(const std::string& instance, const check_outcome& check, bool kernel_profiled) {
  const std::string measured = check.measured ? format_value(*check.measured) : std::string();
  const std::string baseline = check.baseline ? format_value(*check.baseline) : std::string();
  const change_text change =
      check.measured && check.baseline ? format_change(*check.baseline, *check.measured) : change_text{};

  const std::string who =
      instance + ": " + check.metric + (check.kernel.empty() ? "" : " [kernel " + check.kernel + "]");
  const std::string moved = "measured " + measured + " (" + change.difference +
                            (change.percent.empty() ? "" : ", " + change.percent) + "), baseline " +
                            check.expected;
  const std::string record = "; record it with 'counterguard baseline update'";
  switch (check.verdict) {
    case check_verdict::pass:
      return who + ": measured " + measured + ", baseline " + check.expected;
    case check_verdict::regression:
      return who + ": regression: " + moved;
    case check_verdict::improvement:
      return who + ": improvement: " + moved + record;
    case check_verdict::new_metric:
      return who + ": measured " + measured + ", no baseline yet" + record;
    case check_verdict::missing:
      if (check.measured)
        return who + ": measured no value (NaN); baseline " + baseline;
      return who + ": has a baseline (" + baseline + ") but was not measured" +
             (kernel_profiled ? "" : " (the kernel was not profiled)") +
             "; drop it with 'counterguard baseline update'";
    case check_verdict::fail:  // expectations only: a baseline is never failed, it is regressed
      break;
  }
  return who;
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
  check_outcome outcome = baseline_check(kernel_key, metric);
  outcome.measured = measured;
  outcome.baseline = entry.value;
  outcome.verdict = baseline_verdict(entry, band, measured);
  outcome.failing =
      outcome.verdict == check_verdict::improvement ? options.strict : outcome.verdict != check_verdict::pass;
  outcome.expected = expected_text(entry, band);
  outcome.message = baseline_message(instance, outcome, true);
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
      check_outcome outcome = baseline_check(key, metric);
      outcome.expected = "(no baseline)";
      outcome.measured = value;
      outcome.verdict = check_verdict::new_metric;
      outcome.message = baseline_message(result.instance, outcome, true);
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
      check_outcome outcome = baseline_check(key, metric);
      outcome.expected = format_value(entry.value);
      outcome.baseline = entry.value;
      outcome.verdict = check_verdict::missing;
      outcome.failing = options.strict;
      const bool kernel_profiled = kernel != measured.end() || key == baseline_total_key;
      outcome.message = baseline_message(result.instance, outcome, kernel_profiled);
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
