// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <functional>
#include <vector>

#include "counterguard/exec/program_outcome.hpp"
#include "counterguard/exec/recorded_processes.hpp"
#include "counterguard/exec/recording_directory.hpp"
#include "counterguard/exec/replay_mode.hpp"
#include "counterguard/results/replay_record.hpp"

namespace counterguard {

// Which pass groups of each profiled launch one run of the program collects: first_group .. first_group +
// group_count - 1 (0, 0: everything, kernel replay); `automatic`: everything or the first group, as each
// process decides (exec/automatic_replay.hpp).
struct pass_group_request {
  int first_group = 0;
  int group_count = 0;
  bool automatic = false;
};

// One run of the program under the injection, recording into `directory` and collecting `groups`.
using injected_program_run =
    std::function<program_outcome(const std::filesystem::path& directory, const pass_group_request& groups)>;

// What the program's runs recorded, merged into one recording.
struct replayed_program {
  program_outcome program;  // the first run's, or that of the first run that failed
  std::vector<recorded_process> processes;
  replay_record replay;  // the mode, the decision, each run's wall time, each launch's time
};

// Runs the program as `mode` asks (exec/replay_mode.hpp): kernel replay in one run; application replay in one
// run per pass group; auto: one run in which each process kernel-replays or leaves a launch's later groups to
// further runs, then one run per group still missing.
// Later runs record into temporary directories and are merged into the first (merge_replay_runs); when
// `recording` is kept the merged launches are written back into it, so `evaluate DIR` measures what this run
// measured. A run that fails ends the replay. `say` prints a decision (nothing when quiet).
[[nodiscard]] replayed_program run_with_replay(replay_mode mode, const recording_directory& recording,
                                               const injected_program_run& run,
                                               const std::function<void(const std::string&)>& say);

}  // namespace counterguard
