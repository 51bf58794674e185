// SPDX-License-Identifier: Apache-2.0
// ncu's launch__ metrics as counterguard computes them, against what ncu 2025.3 reported on the H200 for the
// same launches (validation/launch_code_checks.sh probe: kernels of 10 to 55 registers, default and under
// -maxrregcount=24 and __launch_bounds__; validation/h200.md).
#include "counterguard/measurement/ncu_launch_values.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>

namespace counterguard {
namespace {

// The H200's attributes ncu's launch metrics read (its device__attribute_ values on that machine).
std::shared_ptr<const std::map<std::string, double>> h200() {
  return std::make_shared<const std::map<std::string, double>>(
      std::map<std::string, double>{{"warp_size", 32},
                                    {"max_registers_per_multiprocessor", 65536},
                                    {"max_warps_per_multiprocessor", 64},
                                    {"max_blocks_per_multiprocessor", 32},
                                    {"multiprocessor_count", 132},
                                    {"reserved_shared_memory_per_block", 1024}});
}

struct ncu_row {
  int registers;  // cuFuncGetAttribute NUM_REGS
  unsigned threads;
  unsigned blocks;
  int blocks_per_sm;  // the occupancy calculator's
  // What ncu reported.
  int registers_per_thread;
  int registers_allocated;
  int limit_registers;
  int limit_warps;
  double waves;  // printed with two decimals
};

constexpr ncu_row measured[] = {
    {10, 256, 256, 8, 16, 16, 16, 8, 0.24},   {12, 256, 256, 8, 16, 16, 16, 8, 0.24},
    {14, 256, 256, 8, 16, 16, 16, 8, 0.24},   {16, 256, 256, 8, 16, 16, 16, 8, 0.24},
    {18, 256, 256, 8, 18, 24, 10, 8, 0.24},   {18, 128, 512, 16, 18, 24, 21, 16, 0.24},
    {20, 128, 512, 16, 20, 24, 21, 16, 0.24}, {22, 128, 512, 16, 22, 24, 21, 16, 0.24},
    {24, 128, 512, 16, 24, 24, 21, 16, 0.24}, {28, 128, 512, 16, 28, 32, 16, 16, 0.24},
    {32, 64, 1024, 32, 32, 32, 32, 32, 0.24}, {35, 64, 1024, 24, 35, 40, 24, 32, 0.32},
    {39, 64, 1024, 24, 39, 40, 24, 32, 0.32}, {55, 64, 1024, 18, 55, 56, 18, 32, 0.43},
    {32, 256, 256, 8, 32, 32, 8, 8, 0.24},    {24, 64, 1024, 32, 24, 24, 42, 32, 0.24},
    {10, 32, 1, 32, 16, 16, 128, 64, 0.0},
};

profiled_launch launch_of(const ncu_row& row) {
  profiled_launch launch;
  launch.registers_per_thread = row.registers;
  launch.block = {row.threads, 1, 1};
  launch.grid = {row.blocks, 1, 1};
  launch.blocks_per_sm = row.blocks_per_sm;
  launch.device_attributes = h200();
  return launch;
}

double value(const profiled_launch& launch, const std::string& name) {
  const std::optional<double> v = launch_metric_value(launch, name);
  EXPECT_TRUE(v.has_value()) << name;
  return v.value_or(-1);
}

TEST(ncu_launch_values, registers_per_thread_are_the_functions_count_but_at_least_16_as_ncu_reports) {
  for (const ncu_row& row : measured) {
    const profiled_launch launch = launch_of(row);
    EXPECT_EQ(value(launch, "launch__registers_per_thread"), row.registers_per_thread) << row.registers;
    EXPECT_EQ(value(launch, "registers"), row.registers_per_thread) << "launch_registers_per_thread";
    EXPECT_EQ(value(launch, "launch__registers_per_thread_allocated"), row.registers_allocated)
        << row.registers;
  }
}

TEST(ncu_launch_values, occupancy_limits_equal_ncus) {
  for (const ncu_row& row : measured) {
    const profiled_launch launch = launch_of(row);
    EXPECT_EQ(value(launch, "launch__occupancy_limit_registers"), row.limit_registers)
        << row.registers << " registers, " << row.threads << " threads";
    EXPECT_EQ(value(launch, "launch__occupancy_limit_warps"), row.limit_warps) << row.threads;
    EXPECT_EQ(value(launch, "launch__occupancy_limit_blocks"), 32);
  }
}

TEST(ncu_launch_values, waves_per_multiprocessor_equal_ncus_to_its_two_decimals) {
  for (const ncu_row& row : measured)
    EXPECT_NEAR(value(launch_of(row), "launch__waves_per_multiprocessor"), row.waves, 0.005) << row.blocks;
}

TEST(ncu_launch_values, geometry_and_shared_memory_are_the_launchs) {
  profiled_launch launch = launch_of(measured[0]);
  launch.block = {16, 8, 2};
  launch.grid = {4, 3, 1};
  launch.static_shared_bytes = 4096;
  launch.dynamic_shared_bytes = 512;
  EXPECT_EQ(value(launch, "launch__block_size"), 256);
  EXPECT_EQ(value(launch, "launch__block_dim_y"), 8);
  EXPECT_EQ(value(launch, "launch__grid_size"), 12);
  EXPECT_EQ(value(launch, "launch__thread_count"), 3072);
  EXPECT_EQ(value(launch, "launch__cluster_size"), 0);
  EXPECT_EQ(value(launch, "launch__shared_mem_per_block_driver"), 1024);
  EXPECT_EQ(value(launch, "launch__shared_mem_per_block"), 4096 + 512 + 1024);
  EXPECT_EQ(value(launch, "launch__sm_count"), 132);
  EXPECT_EQ(value(launch, "device__attribute_max_registers_per_multiprocessor"), 65536);
}

TEST(ncu_launch_values, device_dependent_metrics_of_a_launch_recorded_without_its_device_are_unknown) {
  profiled_launch launch = launch_of(measured[0]);
  launch.device_attributes = nullptr;
  EXPECT_FALSE(launch_metric_value(launch, "launch__sm_count").has_value());
  EXPECT_FALSE(launch_metric_value(launch, "device__attribute_warp_size").has_value());
  EXPECT_EQ(launch_metric_value(launch, "launch__block_size"), 256);
}

}  // namespace
}  // namespace counterguard
