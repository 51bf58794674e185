// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counterguard/exec/recorded_processes.hpp"

namespace counterguard {

// How `exec` collects counters that need more than one pass (docs/exec.md "Speed"):
//   kernel       one run; CUPTI replays each profiled launch once per pass, saving and restoring the device
//                memory the program holds between passes (the cost grows with that memory)
//   application  one run of the program per pass group, each collecting one group: every profiled launch is
//                one pass with no restore; the runs' launches are matched and merged
//   automatic    the first run collects the first group (as application replay does); when launches need
//   more,
//                the rest is collected the cheaper way (choose_replay)
enum class replay_mode { automatic, kernel, application };

[[nodiscard]] const char* to_string(replay_mode mode);  // "auto", "kernel", "application"
// "auto", "kernel" or "application"; nullopt for anything else.
[[nodiscard]] std::optional<replay_mode> parse_replay_mode(const std::string& text);

// The model behind the choice: a restore between kernel-replay passes costs about this much for the memory a
// program holds (fitted to 23 / 77 / 426 ms a 2-pass launch at 1 / 16 / 64 GiB on the H200).
[[nodiscard]] double estimated_restore_milliseconds(std::uint64_t device_bytes_in_use);

// What automatic replay does after its first run.
struct replay_choice {
  replay_mode mode = replay_mode::kernel;  // kernel: one more run, the remaining groups kernel-replayed
  int further_runs = 0;                    // runs still to come (0: the first run collected everything)
  double kernel_estimate_seconds = 0.0;    // the estimated cost of the remaining counters each way
  double application_estimate_seconds = 0.0;
  std::string reason;  // for the run's output: the decision and the figures it came from
};

// The choice after a first run that collected each launch's first pass group (recorded_launch::pass_groups)
// in `program_seconds`: nothing left when every launch takes one group; otherwise application replay (one run
// per remaining group, each costing about the first run) when that is estimated no dearer than one kernel-
// replay run of the remaining groups (a first run's time plus a restore per extra pass and launch, at the
// memory each launch saw).
[[nodiscard]] replay_choice choose_replay(const std::vector<recorded_process>& first_run,
                                          double program_seconds);

}  // namespace counterguard
