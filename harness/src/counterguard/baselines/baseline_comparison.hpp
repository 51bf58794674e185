// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <vector>

#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/baselines/noise_model.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Defaults for entries that do not set their own (docs/baselines.md, "Comparison").
struct baseline_comparison_options {
  // Per-check false-alarm probability of a noisy check (an entry's false_alarm_rate wins): the noise model's
  // band holds one future observation with probability 1 - this (noise_model.hpp, prediction_band.hpp).
  double false_alarm_rate = default_false_alarm_rate;
  // Version 1 entries only (no mean and sd recorded): the band is never narrower than [min, max] widened by
  // w(b) = max(noisy_tolerance * |b|, noisy_absolute_floor) on each side, the rule of schema version 1.
  double noisy_tolerance = 0.10;
  double noisy_absolute_floor = 32.0;
  bool strict = false;  // improvements and vanished metrics fail too
};

// The acceptance interval for a non-zero baseline, before the direction is applied.
struct baseline_band {
  double low = 0.0;
  double high = 0.0;
};

// The band of schema version 1 for a noisy entry: [min - w(min), max + w(max)], w(b) = max(t * |b|, floor)
// with the entry's or the options' tolerance t and floor. acceptance_band never gives a version 1 entry less.
[[nodiscard]] baseline_band version_1_noisy_band(const baseline_entry& entry,
                                                 const baseline_comparison_options& options);

// The interval a measurement may fall in without being a regression or an improvement:
//   static / exact without tolerance: [value, value] (plus a 1e-9 relative epsilon for ratios);
//   static / exact with tolerance t:  value ± t * |value|;
//   noisy: mean ± h, the noise model's prediction band (noisy_prediction_band) for the entry's mean, sd and
//          n, the model sd of its noise kind (entry `noise`, else noise_kind_of_metric(metric)) and its
//          false-alarm rate (entry, else options), two-sided for direction exact; h is at least the entry's
//          tolerance * |mean| and absolute_floor when set. A version 1 entry (no mean and sd) is centred on
//          its value with sd = (max - min) / d2(n), and its band is never narrower than the version 1 band
//          [min - w(min), max + w(max)], w(b) = max(t * |b|, floor) with the entry's or the default t, floor.
[[nodiscard]] baseline_band acceptance_band(const baseline_entry& entry,
                                            const baseline_comparison_options& options,
                                            const std::string& metric = {});

// Judges one measured value against its baseline entry:
//   inside the band: pass;
//   a zero baseline (min = max = 0) must stay 0 whatever the class, tolerance or floor;
//   outside on the worse side (higher for lower_is_better, lower for higher_is_better, either for
//   exact): regression, failing; on the better side: improvement, failing only when strict.
[[nodiscard]] check_outcome compare_with_baseline(const std::string& instance, const std::string& kernel_key,
                                                  const std::string& metric, const baseline_entry& entry,
                                                  double measured,
                                                  const baseline_comparison_options& options);

// Compares everything a case measured (totals under "total", launches under kernel_key()) with its
// baseline case. A measured metric with no entry is new_metric (not failing); an entry the case no longer
// measures is missing (failing only when strict). `baseline` may be null: every metric is new.
[[nodiscard]] std::vector<check_outcome> compare_case_with_baseline(
    const case_result& result, const baseline_case* baseline, const baseline_comparison_options& options);

// The measured values of a case by kernel key and metric, as a baseline file stores them.
[[nodiscard]] std::map<std::string, std::map<std::string, double>> measured_by_kernel_key(
    const case_result& result);

// Refuses a baseline file recorded on another GPU key: throws input_error (exit status 2) naming the
// file, both keys and what to do. Never compare silently across keys.
void require_same_gpu_key(const baseline_file& file, const std::string& path,
                          const std::string& device_gpu_key);

// Appends baseline checks to every case of `results` whose suite has a file in `baselines` (by suite
// name); cases that were skipped or hit an error are left alone. Each file's gpu_key must equal
// results.metadata.gpu_key (require_same_gpu_key; `paths` gives the file names for the message).
void apply_baselines(run_results& results, const std::map<std::string, baseline_file>& baselines,
                     const std::map<std::string, std::string>& paths,
                     const baseline_comparison_options& options);

// apply_baselines with the files in `directory` for the results' GPU key, <directory>/<gpu_key>/<suite>.yaml
// for each suite in the results (a suite without a file: every metric is new).
void apply_baseline_directory(run_results& results, const std::string& directory,
                              const baseline_comparison_options& options);

}  // namespace counterguard
