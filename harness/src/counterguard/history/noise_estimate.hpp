// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace counterguard {

// The spread of a metric's earlier values, estimated robustly (one outlier run does not widen it):
//   sigma = 1.4826 * MAD (median absolute deviation from the median), which equals the standard deviation
//   for normally distributed values; when more than half the values are equal (MAD = 0), the mean absolute
//   deviation * 1.2533 instead (Iglewicz and Hoaglin); 0 when every value is equal.
struct robust_spread {
  std::size_t samples = 0;
  double median = 0.0;
  double sigma = 0.0;
};

// std::nullopt for fewer than `minimum_samples` values (NaN values are ignored).
[[nodiscard]] std::optional<robust_spread> estimate_spread(const std::vector<double>& values,
                                                           std::size_t minimum_samples = 3);

// How many standard deviations a change between two single measurements is: the difference of two
// independent samples has sigma * sqrt(2), so z = delta / (sigma * sqrt(2)). With sigma = 0: 0 for no change,
// +-infinity for any change (the history never moved).
[[nodiscard]] double change_z_score(double delta, double sigma);

}  // namespace counterguard
