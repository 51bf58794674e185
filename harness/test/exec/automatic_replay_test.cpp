// SPDX-License-Identifier: Apache-2.0
// Automatic replay's choice, launch by launch, on the shapes of the programs measured on the H200
// (validation/h200.md "Replay modes"): JAX preallocating 105.5 GiB, PyTorch holding 64.6 GiB, a CUDA program
// holding 0.5 GiB.
#include "counterguard/exec/automatic_replay.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

constexpr std::uint64_t one_gib = 1ULL << 30;
constexpr std::uint64_t device_bytes = 140 * one_gib;

automatic_replay::launch_outlook outlook(std::uint64_t in_use, double program_seconds,
                                         std::optional<std::int64_t> to_come = std::nullopt) {
  automatic_replay::launch_outlook launch;
  launch.pass_groups = 4;
  launch.kernel_replay_passes = 4;
  launch.bytes_in_use = in_use;
  launch.bytes_free = device_bytes - in_use;
  launch.program_seconds = program_seconds;
  launch.launches_to_come = to_come;
  return launch;
}

TEST(automatic_replay, a_program_whose_memory_would_be_saved_to_the_host_is_left_to_further_runs) {
  automatic_replay replay;
  EXPECT_FALSE(replay.kernel_replay(outlook(105 * one_gib, 60.0)));
  EXPECT_NE(replay.decision().find("to host memory"), std::string::npos) << replay.decision();
  EXPECT_NE(replay.decision().find("3 further runs"), std::string::npos) << replay.decision();
}

TEST(automatic_replay, a_program_holding_little_memory_is_kernel_replayed) {
  automatic_replay replay;
  for (int launch = 0; launch < 5; ++launch) {
    EXPECT_TRUE(replay.kernel_replay(outlook(one_gib / 2, 0.3 + 0.01 * launch, 5 - launch))) << launch;
    replay.kernel_replayed(25.0, 4, one_gib);
  }
  EXPECT_FALSE(replay.left_to_further_runs());
  EXPECT_NE(replay.decision().find("kernel replay"), std::string::npos) << replay.decision();
}

TEST(automatic_replay, a_few_launches_of_a_long_program_holding_much_memory_are_kernel_replayed) {
  automatic_replay replay;  // PyTorch holding 64.6 GiB, 10 launches selected, 3 s in
  EXPECT_TRUE(replay.kernel_replay(outlook(65 * one_gib, 3.0, 10)));
}

TEST(automatic_replay, many_selected_launches_of_a_short_program_holding_much_memory_go_to_further_runs) {
  automatic_replay replay;  // 40 launches of about 440 ms each against three runs of a 2 s program
  EXPECT_FALSE(replay.kernel_replay(outlook(65 * one_gib, 2.0, 40)));
  EXPECT_NE(replay.decision().find("from profiled launch 1"), std::string::npos) << replay.decision();
}

TEST(automatic_replay, once_a_launch_is_left_to_further_runs_every_later_one_is_too) {
  automatic_replay replay;
  EXPECT_FALSE(replay.kernel_replay(outlook(65 * one_gib, 2.0, 40)));
  EXPECT_FALSE(replay.kernel_replay(outlook(one_gib, 2.0, 1)));
  EXPECT_TRUE(replay.left_to_further_runs());
}

TEST(automatic_replay, an_unbounded_selection_switches_once_kernel_replay_outgrows_the_runs_it_saves) {
  automatic_replay replay;  // 440 ms a launch, a 3 s program: three runs 9 s, switch past twice that
  int replayed = 0;
  while (replay.kernel_replay(outlook(65 * one_gib, 3.0)) && replayed < 100) {
    ++replayed;
    replay.kernel_replayed(444.0, 4, 130 * one_gib);
  }
  EXPECT_GT(replayed, 10);
  EXPECT_LT(replayed, 50);
  EXPECT_TRUE(replay.left_to_further_runs());
}

TEST(automatic_replay, cuptis_save_buffer_does_not_count_as_the_programs_memory) {
  automatic_replay replay;  // the first replay left a 65 GiB buffer: 130 GiB in use, 10 free
  ASSERT_TRUE(replay.kernel_replay(outlook(65 * one_gib, 3.0, 2)));
  replay.kernel_replayed(444.0, 4, 130 * one_gib);
  EXPECT_TRUE(replay.kernel_replay(outlook(130 * one_gib, 3.5, 1)));
}

TEST(automatic_replay, the_measured_cost_replaces_the_estimate) {
  automatic_replay replay;  // estimated 20 ms at 0.5 GiB, measured 3 s: ten more would cost 30 s
  ASSERT_TRUE(replay.kernel_replay(outlook(one_gib / 2, 1.0, 11)));
  replay.kernel_replayed(3000.0, 4, one_gib / 2);
  EXPECT_FALSE(replay.kernel_replay(outlook(one_gib / 2, 1.0, 10)));
}

TEST(automatic_replay, the_estimate_follows_the_memory_the_program_holds) {
  EXPECT_EQ(automatic_replay::estimated_restore_milliseconds(64 * one_gib, 1), 0.0);
  EXPECT_LT(automatic_replay::estimated_restore_milliseconds(one_gib, 2), 30.0);
  EXPECT_GT(automatic_replay::estimated_restore_milliseconds(64 * one_gib, 4), 400.0);
}

}  // namespace
}  // namespace counterguard
