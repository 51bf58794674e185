// SPDX-License-Identifier: Apache-2.0
#include "counterguard/history/noise_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace counterguard {
namespace {

// For normally distributed values: sigma = 1.4826 * MAD = 1.2533 * mean absolute deviation.
constexpr double mad_to_sigma = 1.4826;
constexpr double mean_deviation_to_sigma = 1.2533;

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

}  // namespace

std::optional<robust_spread> estimate_spread(const std::vector<double>& values, std::size_t minimum_samples) {
  std::vector<double> finite;
  std::copy_if(values.begin(), values.end(), std::back_inserter(finite),
               [](double v) { return std::isfinite(v); });
  if (finite.empty() || finite.size() < minimum_samples)
    return std::nullopt;
  robust_spread spread;
  spread.samples = finite.size();
  spread.median = median_of(finite);
  std::vector<double> deviations;
  deviations.reserve(finite.size());
  for (double v : finite)
    deviations.push_back(std::abs(v - spread.median));
  const double mad = median_of(deviations);
  if (mad > 0.0) {
    spread.sigma = mad_to_sigma * mad;
  } else {
    const double mean_deviation =
        std::accumulate(deviations.begin(), deviations.end(), 0.0) / static_cast<double>(deviations.size());
    spread.sigma = mean_deviation_to_sigma * mean_deviation;
  }
  return spread;
}

double change_z_score(double delta, double sigma) {
  if (sigma > 0.0)
    return delta / (sigma * std::sqrt(2.0));
  if (delta == 0.0)
    return 0.0;
  return delta > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
}

}  // namespace counterguard
