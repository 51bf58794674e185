// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/sample_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace counterguard {

sample_statistics compute_sample_statistics(const std::vector<double>& samples) {
  std::vector<double> values;
  values.reserve(samples.size());
  for (const double value : samples) {
    if (std::isfinite(value))
      values.push_back(value);
  }
  if (values.empty())
    throw std::invalid_argument("compute_sample_statistics: no finite value among " +
                                std::to_string(samples.size()) + " samples");
  std::sort(values.begin(), values.end());
  sample_statistics stats;
  stats.n = static_cast<int>(values.size());
  stats.min = values.front();
  stats.max = values.back();
  const std::size_t middle = values.size() / 2;
  stats.median = values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
  // Two passes (mean, then squared deviations): exact for identical values, stable for large counts.
  double sum = 0.0;
  for (const double value : values)
    sum += value;
  stats.mean = sum / static_cast<double>(values.size());
  if (values.size() > 1) {
    double squares = 0.0;
    for (const double value : values)
      squares += (value - stats.mean) * (value - stats.mean);
    stats.sd = std::sqrt(squares / static_cast<double>(values.size() - 1));
  }
  // The rounded mean of identical values can differ from them in the last bit; keep min <= mean <= max.
  stats.mean = std::clamp(stats.mean, stats.min, stats.max);
  return stats;
}

baseline_entry make_baseline_entry(const std::vector<double>& samples, metric_class cls,
                                   metric_direction direction, noise_kind noise) {
  const sample_statistics stats = compute_sample_statistics(samples);
  baseline_entry entry;
  entry.value = stats.median;
  entry.min = stats.min;
  entry.max = stats.max;
  entry.n = stats.n;
  entry.cls = cls;
  entry.direction = direction;
  if (cls == metric_class::noisy) {
    entry.mean = stats.mean;
    entry.sd = stats.sd;
    entry.noise = noise;
  }
  return entry;
}

}  // namespace counterguard
