// SPDX-License-Identifier: Apache-2.0
#include "counterguard/pipeline/exec_replay.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "counterguard/core/interruption.hpp"
#include "counterguard/exec/replay_run_merge.hpp"
#include "counterguard/exec/replay_time_breakdown.hpp"

namespace counterguard {
namespace {

int most_pass_groups(const std::vector<recorded_process>& processes) {
  int most = 1;
  for (const auto& process : processes) {
    for (const auto& launch : process.launches)
      most = std::max(most, launch.pass_groups);
  }
  return most;
}

// The merged launches written over the first run's archives (archive i is the process's launch i).
void save_merged(const std::vector<recorded_process>& processes) {
  for (const auto& process : processes) {
    for (std::size_t i = 0; i < process.launches.size(); ++i) {
      const recorded_launch& launch = process.launches[i];
      if (launch.further_groups.empty() && launch.runs.size() < 2)
        continue;
      const std::string chip = !launch.data.image.chip.empty() ? launch.data.image.chip
                               : process.record.device         ? process.record.device->chip
                                                               : std::string();
      save_recorded_launch(process.folder, static_cast<int>(i), chip, launch);
    }
  }
}

}  // namespace

replayed_program run_with_replay(replay_mode mode, const recording_directory& recording,
                                 const injected_program_run& run,
                                 const std::function<void(const std::string&)>& say) {
  replayed_program result;
  result.replay.requested = to_string(mode);
  if (mode == replay_mode::kernel) {
    result.program = run(recording.path(), 0, 0);
    result.processes = load_recorded_processes(recording.path());
    result.replay.mode = "kernel";
    result.replay.run_seconds = {result.program.seconds};
    result.replay.launches = break_down_launch_times(result.processes);
    return result;
  }
  result.program = run(recording.path(), 0, 1);
  std::vector<std::vector<recorded_process>> runs{load_recorded_processes(recording.path())};
  result.replay.run_seconds = {result.program.seconds};
  const int groups = most_pass_groups(runs.front());
  // (first group, group count) of each run still to come.
  std::vector<std::pair<int, int>> further;
  result.replay.mode = "application";
  if (mode == replay_mode::application) {
    for (int g = 1; g < groups; ++g)
      further.emplace_back(g, 1);
    if (groups > 1)
      result.replay.decision = fmt::format("up to {} one-pass groups a launch: {} runs", groups, groups);
  } else {
    const replay_choice choice = choose_replay(runs.front(), result.program.seconds);
    result.replay.decision = choice.reason;
    if (choice.further_runs == 0) {
      result.replay.mode = "kernel";  // one pass a launch: the same as kernel replay of everything
    } else if (choice.mode == replay_mode::kernel) {
      result.replay.mode = "kernel";
      further.emplace_back(1, 0);
    } else {
      for (int g = 1; g <= choice.further_runs; ++g)
        further.emplace_back(g, 1);
    }
  }
  if (!further.empty() && !result.replay.decision.empty())
    say("replay: " + result.replay.decision);
  for (std::size_t r = 0; r < further.size() && result.program.succeeded(); ++r) {
    const recording_directory scratch({});
    const program_outcome outcome = run(scratch.path(), further[r].first, further[r].second);
    interruption_guard::throw_if_interrupted();
    result.replay.run_seconds.push_back(outcome.seconds);
    if (!outcome.succeeded()) {
      say(fmt::format("replay: run {} of the program {}: the counters of the runs after it are missing",
                      r + 2, outcome.describe()));
      result.program = outcome;
      break;
    }
    runs.push_back(load_recorded_processes(scratch.path()));
  }
  result.processes = merge_replay_runs(std::move(runs));
  if (recording.kept() && result.replay.run_seconds.size() > 1)
    save_merged(result.processes);
  result.replay.launches = break_down_launch_times(result.processes);
  return result;
}

}  // namespace counterguard
