// SPDX-License-Identifier: Apache-2.0
// ncu's launch__ metrics of the launch's context, code and shared-memory carve-out as counterguard computes
// them. The expected values without a preferred carve-out and with no barrier are what ncu 2025.3 reported
// on the H200 for 256-thread launches of 16 registers and no shared memory (validation/gpu_checks.sh
// predication, validation/h200.md "Each launch's code": context 1,
// stream 13, 32 KiB carve-out, 32 blocks by shared memory and by barriers, stack 1024, persisting L2
// 11796480); the others follow the rules measurement/ncu_shared_memory.cpp states.
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "counterguard/measurement/ncu_launch_values.hpp"
#include "counterguard/measurement/ncu_shared_memory.hpp"

namespace counterguard {
namespace {

std::shared_ptr<const std::map<std::string, double>> h200_carveout_attributes() {
  return std::make_shared<const std::map<std::string, double>>(
      std::map<std::string, double>{{"compute_capability_major", 9},
                                    {"compute_capability_minor", 0},
                                    {"warp_size", 32},
                                    {"max_blocks_per_multiprocessor", 32},
                                    {"max_shared_memory_per_multiprocessor", 233472},
                                    {"reserved_shared_memory_per_block", 1024},
                                    {"device_index", 0}});
}

// The launches ncu measured: 256 threads, 4096 blocks, no shared memory, no preferred carve-out.
profiled_launch measured_launch() {
  profiled_launch launch;
  launch.block = {256, 1, 1};
  launch.grid = {4096, 1, 1};
  launch.registers_per_thread = 16;
  launch.blocks_per_sm = 8;
  launch.device_attributes = h200_carveout_attributes();
  launch.preferred_carveout_pct = -1;
  launch.stream_id = 13;
  launch.context_id = 1;
  launch.stack_size_bytes = 1024;
  launch.persisting_l2_bytes = 11796480;
  return launch;
}

kernel_resources code_with_barriers(int barriers) {
  kernel_resources code;
  code.barriers = barriers;
  return code;
}

double launch_value(const profiled_launch& launch, const std::string& name,
                    const kernel_resources* code = nullptr) {
  const std::optional<double> v = launch_metric_value(launch, name, code);
  EXPECT_TRUE(v.has_value()) << name;
  return v.value_or(-1);
}

TEST(ncu_launch_context, a_launch_without_shared_memory_gets_the_carveout_ncu_showed) {
  const profiled_launch launch = measured_launch();
  EXPECT_EQ(launch_value(launch, "launch__shared_mem_config_size"), 32768);
  EXPECT_EQ(launch_value(launch, "launch__occupancy_limit_shared_mem"), 32);
  EXPECT_EQ(launch_value(launch, "launch__shared_mem_per_block_allocated"), 1024);
}

TEST(ncu_launch_context, the_default_carveout_lets_shared_memory_hold_the_sms_block_limit) {
  profiled_launch launch = measured_launch();
  launch.static_shared_bytes = 8192;  // 9 KiB a block with the driver's: 25 blocks fit in 228 KiB
  const auto memory = ncu_shared_memory_of(launch);
  ASSERT_TRUE(memory.has_value());
  EXPECT_EQ(memory->allocated_per_block, 9216U);
  EXPECT_EQ(memory->config_size, 228U * 1024);
  EXPECT_EQ(memory->blocks_per_sm, 25U);
  launch.static_shared_bytes = 1000;  // 2024 bytes, allocated as 2048: 32 blocks need 64 KiB
  EXPECT_EQ(ncu_shared_memory_of(launch)->allocated_per_block, 2048U);
  EXPECT_EQ(ncu_shared_memory_of(launch)->config_size, 64U * 1024);
  EXPECT_EQ(ncu_shared_memory_of(launch)->blocks_per_sm, 32U);
}

TEST(ncu_launch_context, a_preferred_carveout_sets_the_carveout_unless_one_block_does_not_fit) {
  profiled_launch launch = measured_launch();
  launch.preferred_carveout_pct = 50;  // 114 KiB: the 132 KiB carve-out
  EXPECT_EQ(ncu_shared_memory_of(launch)->config_size, 132U * 1024);
  EXPECT_EQ(ncu_shared_memory_of(launch)->blocks_per_sm, 132U);
  launch.preferred_carveout_pct = 0;
  launch.dynamic_shared_bytes = 40 * 1024;  // 41 KiB: the smallest carve-out holding one block is 64 KiB
  EXPECT_EQ(ncu_shared_memory_of(launch)->config_size, 64U * 1024);
  EXPECT_EQ(ncu_shared_memory_of(launch)->blocks_per_sm, 1U);
}

TEST(ncu_launch_context, the_carveout_of_an_unknown_architecture_is_not_measured) {
  profiled_launch launch = measured_launch();
  auto attributes = *launch.device_attributes;
  attributes["compute_capability_major"] = 7;
  launch.device_attributes = std::make_shared<const std::map<std::string, double>>(attributes);
  EXPECT_FALSE(launch_metric_value(launch, "launch__shared_mem_config_size").has_value());
  EXPECT_NE(why_no_launch_value(launch, "launch__shared_mem_config_size", nullptr).find("architecture"),
            std::string::npos);
}

TEST(ncu_launch_context, barrier_count_is_the_functions_and_limits_blocks_to_64_over_it) {
  const profiled_launch launch = measured_launch();
  const kernel_resources none = code_with_barriers(0);
  const kernel_resources three = code_with_barriers(3);
  const kernel_resources sixteen = code_with_barriers(16);
  const kernel_resources one = code_with_barriers(1);
  EXPECT_EQ(launch_value(launch, "launch__barrier_count", &none), 0);
  EXPECT_EQ(launch_value(launch, "launch__occupancy_limit_barriers", &none), 32);
  EXPECT_EQ(launch_value(launch, "launch__barrier_count", &three), 3);
  EXPECT_EQ(launch_value(launch, "launch__occupancy_limit_barriers", &three), 21);
  EXPECT_EQ(launch_value(launch, "launch__occupancy_limit_barriers", &sixteen), 4);
  EXPECT_EQ(launch_value(launch, "launch__occupancy_limit_barriers", &one), 32);
}

TEST(ncu_launch_context, barriers_of_a_function_nothing_describes_are_not_measured) {
  const profiled_launch launch = measured_launch();
  EXPECT_FALSE(launch_metric_value(launch, "launch__barrier_count", nullptr).has_value());
  kernel_resources stated = code_with_barriers(0);
  stated.barriers_known = false;
  stated.unknown_because = "only the driver's statement of the function was seen";
  EXPECT_FALSE(launch_metric_value(launch, "launch__occupancy_limit_barriers", &stated).has_value());
  EXPECT_EQ(why_no_launch_value(launch, "launch__barrier_count", &stated), stated.unknown_because);
}

TEST(ncu_launch_context, ids_and_limits_are_what_the_launch_recorded) {
  const profiled_launch launch = measured_launch();
  EXPECT_EQ(launch_value(launch, "launch__stream_id"), 13);
  EXPECT_EQ(launch_value(launch, "launch__context_id"), 1);
  EXPECT_EQ(launch_value(launch, "launch__device_id"), 0);
  EXPECT_EQ(launch_value(launch, "launch__stack_size"), 1024);
  EXPECT_EQ(launch_value(launch, "launch__persisting_l2_cache_size"), 11796480);
}

TEST(ncu_launch_context, a_launch_recorded_before_these_were_kept_reads_not_measured_never_zero) {
  profiled_launch launch = measured_launch();
  launch.stream_id.reset();
  launch.context_id.reset();
  launch.stack_size_bytes.reset();
  launch.persisting_l2_bytes.reset();
  launch.preferred_carveout_pct.reset();
  for (const char* name : {"launch__stream_id", "launch__context_id", "launch__stack_size",
                           "launch__persisting_l2_cache_size", "launch__shared_mem_config_size",
                           "launch__occupancy_limit_shared_mem", "launch__shared_mem_per_block_allocated"}) {
    EXPECT_FALSE(launch_metric_value(launch, name).has_value()) << name;
    EXPECT_NE(why_no_launch_value(launch, name, nullptr).find("did not keep"), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace counterguard
