// SPDX-License-Identifier: Apache-2.0
#include "counterguard/metrics/metric_class.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

TEST(metric_class_text, round_trips_every_class) {
  for (auto cls : {metric_class::static_resource, metric_class::exact, metric_class::noisy}) {
    EXPECT_EQ(parse_metric_class(to_string(cls)), cls);
  }
  EXPECT_STREQ(to_string(metric_class::static_resource), "static");
}

TEST(metric_class_text, rejects_unknown_names) {
  EXPECT_FALSE(parse_metric_class("Noisy").has_value());
}

TEST(metric_direction_text, round_trips_every_direction) {
  for (auto d :
       {metric_direction::lower_is_better, metric_direction::higher_is_better, metric_direction::exact}) {
    EXPECT_EQ(parse_metric_direction(to_string(d)), d);
  }
  EXPECT_FALSE(parse_metric_direction("lower").has_value());
}

}  // namespace
}  // namespace counterguard
