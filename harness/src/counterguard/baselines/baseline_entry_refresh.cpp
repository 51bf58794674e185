// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_entry_refresh.hpp"

#include <cmath>

#include "counterguard/baselines/sample_statistics.hpp"

namespace counterguard {
namespace {

// True when `value` passes `entry`'s band: neither a regression nor an improvement.
bool inside_band(const entry_refresh_inputs& inputs, const baseline_entry& entry, double value,
                 const baseline_comparison_options& comparison) {
  return compare_with_baseline(inputs.instance, inputs.kernel, inputs.metric, entry, value, comparison)
             .verdict == check_verdict::pass;
}

// Whether the refresh agrees with the existing entry, so that the file need not change.
bool agrees_with_existing(const entry_refresh_inputs& inputs, const baseline_comparison_options& comparison) {
  const baseline_entry& existing = *inputs.existing;
  const baseline_entry& fresh = inputs.fresh;
  if (existing.cls != fresh.cls || existing.direction != fresh.direction)
    return false;
  if (fresh.cls != metric_class::noisy)
    return existing.value == fresh.value && existing.min == fresh.min && existing.max == fresh.max;
  // A version 1 entry has no statistics for the noise model: the refresh gives it them.
  if (!existing.mean || !existing.sd)
    return false;
  for (const double value : inputs.repetitions) {
    if (std::isfinite(value) && !inside_band(inputs, existing, value, comparison))
      return false;
  }
  return true;
}

}  // namespace

entry_refresh_outcome refresh_baseline_entry(const entry_refresh_inputs& inputs,
                                             const baseline_refresh_options& options) {
  entry_refresh_outcome outcome;
  if (inputs.existing != nullptr && options.keep_entries_inside_band &&
      agrees_with_existing(inputs, options.comparison)) {
    outcome.entry = *inputs.existing;
    outcome.kept = true;
    return outcome;
  }
  outcome.entry = inputs.fresh;
  if (inputs.fresh.cls != metric_class::noisy || inputs.earlier.empty())
    return outcome;

  std::vector<double> samples;
  for (const double value : inputs.repetitions) {
    if (std::isfinite(value))
      samples.push_back(value);
  }
  for (const double value : inputs.earlier) {
    if (!std::isfinite(value))
      continue;
    if (inside_band(inputs, inputs.fresh, value, options.comparison)) {
      samples.push_back(value);
      ++outcome.earlier_used;
    } else {
      ++outcome.earlier_left_out;
    }
  }
  if (outcome.earlier_used == 0)
    return outcome;
  const baseline_entry& fresh = inputs.fresh;
  baseline_entry pooled =
      make_baseline_entry(samples, fresh.cls, fresh.direction, fresh.noise.value_or(noise_kind::counts));
  pooled.noise = fresh.noise;
  pooled.tolerance = fresh.tolerance;
  pooled.absolute_floor = fresh.absolute_floor;
  pooled.false_alarm_rate = fresh.false_alarm_rate;
  pooled.from_history = outcome.earlier_used;
  outcome.entry = pooled;
  return outcome;
}

}  // namespace counterguard
