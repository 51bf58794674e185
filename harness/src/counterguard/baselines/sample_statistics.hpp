// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "counterguard/baselines/baseline_file.hpp"

namespace counterguard {

// What the noise model needs to know of a metric's recent values (docs/baselines.md, "Noise model").
struct sample_statistics {
  int n = 0;            // finite values used
  double mean = 0.0;    // arithmetic mean: the centre of the prediction band
  double sd = 0.0;      // sample standard deviation (n - 1 in the denominator); 0 when n == 1
  double median = 0.0;  // mean of the middle two for even n
  double min = 0.0;
  double max = 0.0;
};

// The statistics of any sample: the N repetitions of `baseline update`, or the last N recorded values of a
// metric from a history store. Non-finite values (a run that did not measure the metric) are skipped;
// throws std::invalid_argument when no finite value remains.
[[nodiscard]] sample_statistics compute_sample_statistics(const std::vector<double>& samples);

// The baseline entry a sample gives: value = median, min / max / n; for a noisy class also mean, sd and the
// noise kind (what the noise model's band needs). Tolerances, floors and a false-alarm rate are left unset.
// Throws std::invalid_argument when no sample is finite.
[[nodiscard]] baseline_entry make_baseline_entry(const std::vector<double>& samples, metric_class cls,
                                                 metric_direction direction, noise_kind noise);

}  // namespace counterguard
