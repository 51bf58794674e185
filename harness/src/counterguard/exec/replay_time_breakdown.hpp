// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/exec/recorded_processes.hpp"
#include "counterguard/results/replay_record.hpp"

namespace counterguard {

// Where each profiled launch's time went, over every run of the program that profiled it: set-up, the launch
// with its replay passes, and the memory restore, estimated as a multi-pass launch's time beyond its passes'
// one-pass cost (CUPTI reports nothing finer). The one-pass cost is the launch's own from a one-pass run
// (application replay, auto's first run), else the median of the one-pass launches of the same kernel in the
// recording; without either the restore is not known and stays in the replay time.
[[nodiscard]] std::vector<replay_launch_time> break_down_launch_times(
    const std::vector<recorded_process>& processes);

// For the run's output: the program's time in each run and what the profiled launches took, summed, with the
// slowest launches one line each (all of them in the results' metadata.replay).
[[nodiscard]] std::string describe_replay_record(const replay_record& replay);

}  // namespace counterguard
