// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "counterguard/baselines/baseline_update.hpp"

namespace counterguard {
namespace {

TEST(catalog_metric_traits, takes_class_and_direction_from_the_catalog) {
  const metric_traits traits = catalog_metric_traits("duration_ns");
  EXPECT_EQ(traits.cls, metric_class::noisy);
  EXPECT_EQ(traits.direction, metric_direction::lower_is_better);
  EXPECT_FALSE(traits.absolute_floor.has_value());
}

TEST(catalog_metric_traits, gives_noisy_percentages_a_floor_of_two_percentage_points) {
  const metric_traits traits = catalog_metric_traits("achieved_occupancy");
  EXPECT_EQ(traits.direction, metric_direction::higher_is_better);
  EXPECT_EQ(traits.absolute_floor, std::optional<double>(2.0));
}

TEST(catalog_metric_traits, names_the_noise_kind_of_the_metric) {
  EXPECT_EQ(catalog_metric_traits("duration_ns").noise, noise_kind::duration);
  EXPECT_EQ(catalog_metric_traits("dram_read_bytes").noise, noise_kind::bytes);
  EXPECT_EQ(catalog_metric_traits("l1_hit_rate").noise, noise_kind::percent);
  EXPECT_EQ(catalog_metric_traits("shared_load_bank_conflicts_hw").noise, noise_kind::counts);
}

TEST(catalog_metric_traits, treats_unknown_names_as_exact_lower_is_better) {
  const metric_traits traits = catalog_metric_traits("not a metric");
  EXPECT_EQ(traits.cls, metric_class::exact);
  EXPECT_EQ(traits.direction, metric_direction::lower_is_better);
}

}  // namespace
}  // namespace counterguard
