// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/prediction_band.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "counterguard/baselines/noise_model.hpp"

namespace counterguard {

double student_t_upper_quantile(double tail_probability, double degrees_of_freedom) {
  if (!(tail_probability > 0.0 && tail_probability < 1.0) || !(degrees_of_freedom > 0.0))
    throw std::invalid_argument("student_t_upper_quantile: probability " + std::to_string(tail_probability) +
                                " or degrees of freedom " + std::to_string(degrees_of_freedom) +
                                " out of range");
  static std::mutex mutex;
  static std::map<std::pair<double, double>, double> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(tail_probability, degrees_of_freedom);
  const auto found = cache.find(key);
  if (found != cache.end())
    return found->second;
  const boost::math::students_t distribution(degrees_of_freedom);
  const double quantile = boost::math::quantile(boost::math::complement(distribution, tail_probability));
  cache.emplace(key, quantile);
  return quantile;
}

prediction_band noisy_prediction_band(const prediction_band_request& request) {
  if (request.n < 1 || !(request.sd >= 0.0) || !std::isfinite(request.sd) || !(request.model_sd >= 0.0) ||
      !std::isfinite(request.model_sd) || !std::isfinite(request.mean))
    throw std::invalid_argument(
        "noisy_prediction_band: needs n >= 1 and finite mean, sd >= 0, model_sd >= 0");
  if (!(request.false_alarm_rate > 0.0 && request.false_alarm_rate < 0.5))
    throw std::invalid_argument("noisy_prediction_band: false-alarm rate " +
                                std::to_string(request.false_alarm_rate) + " is outside (0, 0.5)");
  const double prior_df = noise_model_degrees_of_freedom;
  const double sample_df = request.n - 1;
  prediction_band band;
  band.degrees_of_freedom = prior_df + sample_df;
  band.scale =
      std::sqrt((prior_df * request.model_sd * request.model_sd + sample_df * request.sd * request.sd) /
                band.degrees_of_freedom);
  const double tail = request.two_sided ? request.false_alarm_rate / 2.0 : request.false_alarm_rate;
  band.quantile = student_t_upper_quantile(tail, band.degrees_of_freedom);
  band.half_width = band.quantile * band.scale * std::sqrt(1.0 + 1.0 / request.n);
  band.low = request.mean - band.half_width;
  band.high = request.mean + band.half_width;
  return band;
}

}  // namespace counterguard
