// SPDX-License-Identifier: Apache-2.0
// Automatic replay's choice after its first run.
#include "counterguard/exec/replay_mode.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

constexpr std::uint64_t bytes_per_gib = 1ULL << 30;

std::vector<recorded_process> first_run(int groups, std::uint64_t bytes, int launches) {
  recorded_process process;
  for (int i = 0; i < launches; ++i) {
    recorded_launch launch;
    launch.pass_groups = groups;
    launch.device_bytes_in_use = bytes;
    launch.launch_milliseconds = 0.4;
    process.launches.push_back(launch);
  }
  return {process};
}

TEST(replay_mode, one_pass_launches_need_no_further_run) {
  const replay_choice choice = choose_replay(first_run(1, 100 * bytes_per_gib, 40), 5.0);
  EXPECT_EQ(choice.further_runs, 0);
}

TEST(replay_mode, a_program_holding_most_of_the_gpu_is_run_again_per_group) {
  const replay_choice choice = choose_replay(first_run(3, 100 * bytes_per_gib, 40), 5.0);
  EXPECT_EQ(choice.mode, replay_mode::application);
  EXPECT_EQ(choice.further_runs, 2);
}

TEST(replay_mode, a_long_program_holding_little_memory_is_kernel_replayed_once) {
  const replay_choice choice = choose_replay(first_run(3, bytes_per_gib / 4, 4), 30.0);
  EXPECT_EQ(choice.mode, replay_mode::kernel);
  EXPECT_EQ(choice.further_runs, 1);
  EXPECT_NE(choice.reason.find("kernel replay"), std::string::npos) << choice.reason;
}

TEST(replay_mode, names_parse_back) {
  for (const replay_mode mode : {replay_mode::automatic, replay_mode::kernel, replay_mode::application})
    EXPECT_EQ(parse_replay_mode(to_string(mode)), mode);
  EXPECT_FALSE(parse_replay_mode("user"));
}

}  // namespace
}  // namespace counterguard
