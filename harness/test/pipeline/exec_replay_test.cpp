// SPDX-License-Identifier: Apache-2.0
// exec's runs of the program in each replay mode, with a program stand-in that records what the injection
// library would: counter data recorded on an H200 (harness/test/fixtures/h200_builtin, archive 0000: one
// launch, three counters, taken here as three one-pass groups).
#include "counterguard/pipeline/exec_replay.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace counterguard {
namespace {

namespace fs = std::filesystem;

const fs::path builtin_recording = fs::path(COUNTERGUARD_SOURCE_DIR) / "harness/test/fixtures/h200_builtin";
const std::string atomics_case = "atomics/per_thread?block=128";
constexpr int launches = 4;
constexpr int groups = 3;

// The program: `launches` profiled launches; an automatic first run kernel-replays the first `replayed` of
// them (every counter) and leaves the others' later groups, saying so in its process record.
class recording_program {
 public:
  explicit recording_program(int replayed) : m_replayed(replayed) {}

  program_outcome operator()(const fs::path& directory, const pass_group_request& request) {
    requests.push_back(request);
    process_record record;
    record.process.pid = 100;
    record.process.started_ns = static_cast<std::int64_t>(requests.size());
    record.process.executable = "/work/bin/app";
    record.finished = true;
    record.cases.push_back({atomics_case, true, launches, launches, {}});
    if (request.automatic && m_replayed < launches)
      record.replay_decision = "application replay from profiled launch " + std::to_string(m_replayed + 1);
    const fs::path folder = process_folder(directory, record.process);
    fs::create_directories(folder);
    const archived_case recorded = load_counter_data_archive(builtin_recording / "0000").cases.front();
    for (int l = 0; l < launches; ++l) {
      recorded_launch launch;
      launch.cases = {atomics_case};
      launch.ordinals = {l};
      launch.data = recorded;
      launch.pass_groups = groups;
      const bool whole = request.group_count == 0 && (!request.automatic || l < m_replayed);
      launch.every_group_collected = whole;
      if (!whole) {
        const auto first = recorded.raw_metrics.begin() + request.first_group;
        launch.data.raw_metrics.assign(first, first + 1);
      }
      save_recorded_launch(folder, l, "GH100", launch);
    }
    save_process_record((folder / "process.json").string(), record);
    program_outcome outcome;
    outcome.exit_status = 0;
    outcome.seconds = 1.0;
    return outcome;
  }

  std::vector<pass_group_request> requests;

 private:
  int m_replayed = 0;
};

replayed_program replay(replay_mode mode, recording_program& program) {
  const recording_directory recording({});
  return run_with_replay(
      mode, recording,
      [&](const fs::path& directory, const pass_group_request& request) {
        return program(directory, request);
      },
      [](const std::string&) {});
}

TEST(exec_replay, automatic_replay_that_kernel_replayed_every_launch_runs_the_program_once) {
  recording_program program(launches);
  const replayed_program result = replay(replay_mode::automatic, program);
  ASSERT_EQ(program.requests.size(), 1U);
  EXPECT_TRUE(program.requests.front().automatic);
  EXPECT_EQ(result.replay.mode, "kernel");
  EXPECT_EQ(result.replay.run_seconds.size(), 1U);
}

TEST(exec_replay, automatic_replay_runs_the_program_again_for_each_group_a_launch_left) {
  recording_program program(1);
  const replayed_program result = replay(replay_mode::automatic, program);
  ASSERT_EQ(program.requests.size(), 3U);
  for (int run = 1; run < 3; ++run) {
    EXPECT_EQ(program.requests[static_cast<std::size_t>(run)].first_group, run);
    EXPECT_EQ(program.requests[static_cast<std::size_t>(run)].group_count, 1);
    EXPECT_FALSE(program.requests[static_cast<std::size_t>(run)].automatic);
  }
  EXPECT_EQ(result.replay.mode, "application");
  EXPECT_EQ(result.replay.decision, "application replay from profiled launch 2");
  const std::vector<recorded_launch>& merged = result.processes.at(0).launches;
  ASSERT_EQ(merged.size(), static_cast<std::size_t>(launches));
  EXPECT_TRUE(merged[0].further_groups.empty()) << "the kernel-replayed launch keeps its own counters";
  for (int l = 1; l < launches; ++l)
    EXPECT_EQ(merged[static_cast<std::size_t>(l)].further_groups.size(), 2U) << l;
}

TEST(exec_replay, kernel_replay_runs_the_program_once_for_every_counter) {
  recording_program program(0);
  const replayed_program result = replay(replay_mode::kernel, program);
  ASSERT_EQ(program.requests.size(), 1U);
  EXPECT_EQ(program.requests.front().group_count, 0);
  EXPECT_FALSE(program.requests.front().automatic);
  EXPECT_EQ(result.replay.mode, "kernel");
}

TEST(exec_replay, application_replay_runs_the_program_once_per_group) {
  recording_program program(0);
  const replayed_program result = replay(replay_mode::application, program);
  ASSERT_EQ(program.requests.size(), 3U);
  EXPECT_EQ(program.requests.front().group_count, 1);
  EXPECT_EQ(result.replay.mode, "application");
  EXPECT_EQ(result.replay.decision, "up to 3 one-pass groups a launch: 3 runs");
}

}  // namespace
}  // namespace counterguard
