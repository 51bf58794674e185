// SPDX-License-Identifier: Apache-2.0
#include "counterguard/pipeline/exec_replay.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "counterguard/core/interruption.hpp"
#include "counterguard/exec/replay_run_merge.hpp"
#include "counterguard/exec/replay_time_breakdown.hpp"

namespace counterguard {
namespace {

// The most pass groups of a launch whose later groups are still to be collected (1: none is).
int most_missing_groups(const std::vector<recorded_process>& processes) {
  int most = 1;
  for (const auto& process : processes) {
    for (const auto& launch : process.launches) {
      if (!launch.every_group_collected)
        most = std::max(most, launch.pass_groups);
    }
  }
  return most;
}

// The processes' automatic-replay decisions, each once.
std::string replay_decisions(const std::vector<recorded_process>& processes) {
  std::vector<std::string> decisions;
  for (const auto& process : processes) {
    const std::string& decision = process.record.replay_decision;
    if (!decision.empty() && std::find(decisions.begin(), decisions.end(), decision) == decisions.end())
      decisions.push_back(decision);
  }
  std::string text;
  for (const auto& decision : decisions)
    text += (text.empty() ? "" : "; ") + decision;
  return text;
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
  pass_group_request first;
  if (mode == replay_mode::application)
    first.group_count = 1;
  first.automatic = mode == replay_mode::automatic;
  result.program = run(recording.path(), first);
  std::vector<std::vector<recorded_process>> runs{load_recorded_processes(recording.path())};
  result.replay.run_seconds = {result.program.seconds};
  // Groups 1 .. groups - 1 of the launches the first run did not collect whole, a run each (none after
  // kernel replay, which collects every launch whole).
  const int groups = most_missing_groups(runs.front());
  result.replay.mode = groups > 1 ? "application" : "kernel";
  if (mode == replay_mode::automatic)
    result.replay.decision = replay_decisions(runs.front());
  else if (groups > 1)
    result.replay.decision = fmt::format("up to {} one-pass groups a launch: {} runs", groups, groups);
  if (groups > 1 && !result.replay.decision.empty())
    say("replay: " + result.replay.decision);
  for (int group = 1; group < groups && result.program.succeeded(); ++group) {
    const recording_directory scratch({});
    const program_outcome outcome = run(scratch.path(), {group, 1, false});
    interruption_guard::throw_if_interrupted();
    result.replay.run_seconds.push_back(outcome.seconds);
    if (!outcome.succeeded()) {
      say(fmt::format("replay: run {} of the program {}: the counters of the runs after it are missing",
                      group + 1, outcome.describe()));
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
