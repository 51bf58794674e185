// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "counterguard/exec/recorded_processes.hpp"

namespace counterguard {

// The runs of one program that collected different pass groups of the same launches (application replay,
// or automatic replay's first run and its kernel-replayed rest) merged into one recording: the first run's
// processes and launches, each launch carrying the counters the later runs collected for it
// (recorded_launch::further_groups) and each run's timing (recorded_launch::runs). Processes are matched by
// their labels (rank, or executable and start order) among those that profiled a launch; their launches by
// position, checked to be the same launch: kernel, NVTX context, cases and match ordinals. When the selected
// launches of two runs differ, input_error naming the first launch that differs (the program does not launch
// the same kernels each run; `--replay-mode kernel` measures it in one run).
[[nodiscard]] std::vector<recorded_process> merge_replay_runs(
    std::vector<std::vector<recorded_process>> runs);

}  // namespace counterguard
