// SPDX-License-Identifier: Apache-2.0
// ncu's cluster occupancy launch__ metrics from the driver's cluster occupancy calculator at the launch.
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "counterguard/measurement/ncu_launch_values.hpp"

namespace counterguard {
namespace {

// 128-thread blocks, 2 of them per SM by the occupancy calculator, on a 132-SM GPU of 64 warp slots per SM.
profiled_launch cluster_launch(unsigned cluster_width, int max_active_clusters) {
  profiled_launch launch;
  launch.block = {128, 1, 1};
  launch.grid = {528, 1, 1};
  launch.cluster = {cluster_width, cluster_width == 0 ? 0U : 1U, cluster_width == 0 ? 0U : 1U};
  launch.blocks_per_sm = 2;
  launch.device_attributes =
      std::make_shared<const std::map<std::string, double>>(std::map<std::string, double>{
          {"warp_size", 32}, {"multiprocessor_count", 132}, {"max_warps_per_multiprocessor", 64}});
  launch.max_active_clusters = max_active_clusters;
  launch.max_potential_cluster_size = cluster_width == 0 ? 0 : 8;
  return launch;
}

double value_of(const profiled_launch& launch, const char* name) {
  const std::optional<double> value = launch_metric_value(launch, name, nullptr);
  EXPECT_TRUE(value.has_value()) << name;
  return value.value_or(-1);
}

TEST(ncu_cluster_occupancy, a_launch_without_clusters_reads_zero_as_ncu_shows_it) {
  const profiled_launch launch = cluster_launch(0, 0);
  for (const char* name : {"launch__cluster_max_active", "launch__cluster_max_potential_size",
                           "launch__occupancy_cluster_pct", "launch__occupancy_cluster_gpu_pct"})
    EXPECT_EQ(value_of(launch, name), 0.0) << name;
}

TEST(ncu_cluster_occupancy, the_percentages_compare_the_blocks_the_clusters_hold_with_the_sms) {
  // 16 clusters of 8 blocks fit: 128 blocks of the 264 the SMs hold without clusters, 512 of 8448 warp slots.
  const profiled_launch launch = cluster_launch(8, 16);
  EXPECT_EQ(value_of(launch, "launch__cluster_max_active"), 16.0);
  EXPECT_EQ(value_of(launch, "launch__cluster_max_potential_size"), 8.0);
  EXPECT_DOUBLE_EQ(value_of(launch, "launch__occupancy_cluster_pct"), 128.0 / 264.0 * 100.0);
  EXPECT_DOUBLE_EQ(value_of(launch, "launch__occupancy_cluster_gpu_pct"), 512.0 / 8448.0 * 100.0);
}

TEST(ncu_cluster_occupancy, a_recording_without_the_calculators_answer_is_not_measured_and_says_why) {
  profiled_launch launch = cluster_launch(8, 16);
  launch.max_active_clusters.reset();
  launch.max_potential_cluster_size.reset();
  for (const char* name : {"launch__cluster_max_active", "launch__occupancy_cluster_pct"}) {
    EXPECT_FALSE(launch_metric_value(launch, name, nullptr).has_value()) << name;
    EXPECT_NE(why_no_launch_value(launch, name, nullptr).find("cluster occupancy"), std::string::npos)
        << name;
  }
}

}  // namespace
}  // namespace counterguard
