// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace counterguard {

// The band one future observation of a noisy metric falls in with probability 1 - false_alarm_rate
// (docs/baselines.md, "Noise model"). The samples' variance s^2 (n - 1 degrees of freedom) is pooled with the
// noise model's variance sigma_m^2 (noise_model_degrees_of_freedom = nu0 of them):
//   scale^2 = (nu0 * sigma_m^2 + (n - 1) * s^2) / (nu0 + n - 1)
//   half_width = t_{1 - p, nu0 + n - 1} * scale * sqrt(1 + 1/n),   band = mean +- half_width
// with p = false_alarm_rate for a one-sided check (only one side is a regression) and p = false_alarm_rate /
// 2 for a two-sided one. This is the posterior predictive interval of a normal model whose variance has a
// scaled inverse chi-square prior (nu0 degrees of freedom, scale sigma_m); with nu0 = 0 it is the classical
// prediction interval mean +- t_{1 - p, n - 1} s sqrt(1 + 1/n).
struct prediction_band {
  double low = 0.0;
  double high = 0.0;
  double half_width = 0.0;
  double scale = 0.0;     // the pooled standard deviation
  double quantile = 0.0;  // Student t quantile used
  double degrees_of_freedom = 0.0;
};

struct prediction_band_request {
  double mean = 0.0;
  double sd = 0.0;  // of the samples
  int n = 1;        // samples behind mean and sd
  double model_sd = 0.0;
  double false_alarm_rate = 0.0;
  bool two_sided = false;
};

// Throws std::invalid_argument for n < 1, negative or non-finite sd or model_sd, or a false-alarm rate
// outside (0, 0.5).
[[nodiscard]] prediction_band noisy_prediction_band(const prediction_band_request& request);

// The Student t quantile exceeded with probability `tail_probability` (Boost.Math), cached per
// (probability, degrees of freedom): a gate computes the same few quantiles for every check.
[[nodiscard]] double student_t_upper_quantile(double tail_probability, double degrees_of_freedom);

}  // namespace counterguard
