// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/prediction_band.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "counterguard/baselines/noise_model.hpp"

namespace counterguard {
namespace {

TEST(student_t_upper_quantile, matches_the_tables) {
  EXPECT_NEAR(student_t_upper_quantile(0.025, 10), 2.228, 0.001);
  EXPECT_NEAR(student_t_upper_quantile(0.05, 4), 2.132, 0.001);
  // The default alpha: t with 2 degrees of freedom has the closed form (1 - 2p) / sqrt(2 p (1 - p)).
  const double p = default_false_alarm_rate;
  EXPECT_NEAR(student_t_upper_quantile(p, 2), (1 - 2 * p) / std::sqrt(2 * p * (1 - p)), 1e-6);
  EXPECT_NEAR(student_t_upper_quantile(p, 10), 7.883, 0.001);
  EXPECT_THROW((void)student_t_upper_quantile(0.0, 3), std::invalid_argument);
  EXPECT_THROW((void)student_t_upper_quantile(0.1, 0), std::invalid_argument);
}

TEST(noisy_prediction_band, pools_the_sample_variance_with_the_model_and_widens_for_one_new_value) {
  prediction_band_request request;
  request.mean = 1000;
  request.sd = 20;
  request.n = 5;
  request.model_sd = 40;
  request.false_alarm_rate = 1e-3;
  const prediction_band band = noisy_prediction_band(request);
  // scale^2 = (8 * 40^2 + 4 * 20^2) / 12 = 1200; t_{0.999, 12} = 3.930; sqrt(1 + 1/5) = 1.0954.
  EXPECT_DOUBLE_EQ(band.degrees_of_freedom, 12);
  EXPECT_NEAR(band.scale, std::sqrt(1200.0), 1e-9);
  EXPECT_NEAR(band.quantile, 3.930, 0.001);
  EXPECT_NEAR(band.half_width, 3.930 * std::sqrt(1200.0) * std::sqrt(1.2), 0.1);
  EXPECT_DOUBLE_EQ(band.low, 1000 - band.half_width);
  EXPECT_DOUBLE_EQ(band.high, 1000 + band.half_width);
}

TEST(noisy_prediction_band, identical_samples_still_get_the_model_width) {
  prediction_band_request request;
  request.mean = 1157;
  request.n = 3;
  request.model_sd = model_noise_sd(noise_kind::counts, 1157);
  request.false_alarm_rate = default_false_alarm_rate;
  const prediction_band band = noisy_prediction_band(request);
  EXPECT_GT(band.half_width, 500);
}

TEST(noisy_prediction_band, a_two_sided_check_splits_alpha_between_the_sides) {
  prediction_band_request request;
  request.mean = 100;
  request.sd = 1;
  request.n = 5;
  request.model_sd = 1;
  request.false_alarm_rate = 0.05;
  const double one_sided = noisy_prediction_band(request).quantile;
  request.two_sided = true;
  EXPECT_DOUBLE_EQ(noisy_prediction_band(request).quantile, student_t_upper_quantile(0.025, 12));
  EXPECT_GT(noisy_prediction_band(request).quantile, one_sided);
}

TEST(noisy_prediction_band, more_samples_let_the_data_decide) {
  prediction_band_request request;
  request.mean = 100;
  request.sd = 10;  // far noisier than the model says
  request.model_sd = 1;
  request.false_alarm_rate = 1e-3;
  request.n = 3;
  const double few = noisy_prediction_band(request).scale;
  request.n = 200;
  const double many = noisy_prediction_band(request).scale;
  EXPECT_LT(few, 7.0);
  EXPECT_GT(many, 9.7);
}

TEST(noisy_prediction_band, refuses_what_is_not_a_sample_or_a_probability) {
  prediction_band_request request;
  request.false_alarm_rate = 0.5;
  EXPECT_THROW((void)noisy_prediction_band(request), std::invalid_argument);
  request.false_alarm_rate = 0.01;
  request.n = 0;
  EXPECT_THROW((void)noisy_prediction_band(request), std::invalid_argument);
  request.n = 2;
  request.sd = -1;
  EXPECT_THROW((void)noisy_prediction_band(request), std::invalid_argument);
}

}  // namespace
}  // namespace counterguard
