// SPDX-License-Identifier: Apache-2.0
// The note exec prints when kernel replay's memory restore slowed the profiled launches.
#include "counterguard/exec/replay_cost.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

recorded_process process_with(int passes, double milliseconds, std::uint64_t bytes, int launches = 3) {
  recorded_process process;
  for (int i = 0; i < launches; ++i) {
    recorded_launch launch;
    launch.data.passes = passes;
    launch.launch_milliseconds = milliseconds + i;
    launch.device_bytes_in_use = bytes;
    process.launches.push_back(launch);
  }
  return process;
}

constexpr std::uint64_t gib = 1ULL << 30;

TEST(replay_cost, multi_pass_launches_in_a_program_holding_much_memory_say_what_it_costs_and_what_helps) {
  const auto note = describe_replay_cost({process_with(2, 404.0, 64 * gib)});
  ASSERT_TRUE(note.has_value());
  EXPECT_EQ(
      *note,
      "3 profiled launches took up to 2 passes each, 405 ms a launch (median): between passes CUPTI saves "
      "and restores the device memory the program holds (64.0 GiB), so the cost grows with it. A launch "
      "measured in one pass needs no restore: --replay-mode application runs the program once per pass "
      "group, or measure fewer metrics per run (one case at a time with "
      "--filter, or fewer --metric), or hold less device memory while the selected launches run");
}

TEST(replay_cost, one_pass_launches_need_no_note) {
  EXPECT_FALSE(describe_replay_cost({process_with(1, 900.0, 64 * gib)}));
}

TEST(replay_cost, a_cheap_replay_or_little_memory_needs_no_note) {
  EXPECT_FALSE(describe_replay_cost({process_with(2, 3.0, 64 * gib)}));
  EXPECT_FALSE(describe_replay_cost({process_with(2, 40.0, gib / 2)}));
  EXPECT_FALSE(describe_replay_cost({process_with(2, 40.0, 0)}));  // a recording made before it was kept
}

}  // namespace
}  // namespace counterguard
