// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/noise_model.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace counterguard {
namespace {

TEST(noise_model, the_default_false_alarm_rate_keeps_1500_checks_below_one_flake_in_100_runs) {
  const double per_run = 1.0 - std::pow(1.0 - default_false_alarm_rate, 1500);
  EXPECT_LE(per_run, 0.01);
  EXPECT_GT(per_run, 0.0099);  // not needlessly strict either
  EXPECT_NEAR(1.0 - std::pow(0.99, 1.0 / 1500.0), 6.7002e-6, 1e-9);
}

TEST(noise_model, kinds_come_from_the_catalog_units_of_aliases) {
  EXPECT_EQ(noise_kind_of_metric("shared_store_bank_conflicts_hw"), noise_kind::counts);
  EXPECT_EQ(noise_kind_of_metric("dram_read_bytes"), noise_kind::bytes);
  EXPECT_EQ(noise_kind_of_metric("l2_hit_rate"), noise_kind::percent);
  EXPECT_EQ(noise_kind_of_metric("achieved_occupancy"), noise_kind::percent);
  EXPECT_EQ(noise_kind_of_metric("duration_ns"), noise_kind::duration);
  EXPECT_EQ(noise_kind_of_metric("shared_atomic_instructions"), noise_kind::counts);
}

TEST(noise_model, kinds_of_raw_cupti_names_come_from_the_name) {
  EXPECT_EQ(noise_kind_of_metric("dram__bytes_read.sum"), noise_kind::bytes);
  EXPECT_EQ(noise_kind_of_metric("lts__t_sector_hit_rate.pct"), noise_kind::percent);
  EXPECT_EQ(noise_kind_of_metric("sm__warps_active.avg.pct_of_peak_sustained_active"), noise_kind::percent);
  EXPECT_EQ(noise_kind_of_metric("gpu__time_duration.sum"), noise_kind::duration);
  EXPECT_EQ(noise_kind_of_metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
            noise_kind::counts);
  EXPECT_EQ(noise_kind_of_metric("not a metric"), noise_kind::counts);
}

TEST(noise_model, counts_are_poisson_like_with_a_small_relative_part) {
  // 3.5 sqrt(1157) = 119.05; the relative part (5.8) hardly matters there.
  EXPECT_NEAR(model_noise_sd(noise_kind::counts, 1157), std::sqrt(12.25 * 1157 + 5.785 * 5.785), 1e-9);
  EXPECT_NEAR(model_noise_sd(noise_kind::counts, 1157) / 1157, 0.103, 0.001);
  // At 4.1M counts the relative part dominates: 0.53%.
  EXPECT_NEAR(model_noise_sd(noise_kind::counts, 4097615) / 4097615, 0.0053, 0.0001);
  // Zero and tiny counts still have a model of 3.5 counts: a band is never zero wide.
  EXPECT_DOUBLE_EQ(model_noise_sd(noise_kind::counts, 0), 3.5);
  EXPECT_DOUBLE_EQ(model_noise_sd(noise_kind::counts, -1000), model_noise_sd(noise_kind::counts, 1000));
}

TEST(noise_model, bytes_count_32_byte_sectors_and_percentages_are_in_points) {
  EXPECT_NEAR(model_noise_sd(noise_kind::bytes, 3200), std::sqrt(12.25 * 32 * 3200 + 48.0 * 48.0), 1e-9);
  EXPECT_NEAR(model_noise_sd(noise_kind::bytes, 134217728) / 134217728, 0.0150, 0.0002);
  EXPECT_DOUBLE_EQ(model_noise_sd(noise_kind::percent, 13.2), 0.5);
  EXPECT_DOUBLE_EQ(model_noise_sd(noise_kind::percent, 99.0), 0.5);
  EXPECT_NEAR(model_noise_sd(noise_kind::duration, 100000), 3000.0, 2.0);
  EXPECT_NEAR(model_noise_sd(noise_kind::relative, 4.0), 0.04, 1e-4);
}

TEST(noise_model, kind_names_round_trip) {
  for (const noise_kind kind : {noise_kind::counts, noise_kind::bytes, noise_kind::percent,
                                noise_kind::duration, noise_kind::relative}) {
    EXPECT_EQ(parse_noise_kind(to_string(kind)), kind);
  }
  EXPECT_FALSE(parse_noise_kind("seconds").has_value());
}

}  // namespace
}  // namespace counterguard
