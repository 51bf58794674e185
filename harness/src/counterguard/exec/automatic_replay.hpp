// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace counterguard {

// Automatic replay's choice, made in the program's first run by each process, launch by launch: a launch
// whose counters take more than one pass is either kernel-replayed by CUPTI now (its memory saved and
// restored between passes, at a cost that grows with what the program holds) or profiled for its first
// one-pass group only, the rest left to further runs of the program, one per group (application replay). Once
// a process leaves a launch to further runs it leaves every later one too: those runs happen anyway, and
// collect the rest of every launch at one pass each.
//
// The choice, from what the launch sees:
//   - the save does not fit in the device's free memory (CUPTI would save to host memory, two orders slower:
//     on the H200 a JAX program holding 105.5 GiB spent more than 12 s per launch) -> further runs;
//   - otherwise kernel replay while its cost stays within twice what the further runs would cost (the
//     program's own time so far and one pass of each profiled launch, once per remaining group): the
//     kernel-replay cost spent so far plus that of the launches still to come (the selection's bound when
//     every case applying gives `launch_count`, else as many as so far, at least one).
// Not thread-safe: the caller serialises.
class automatic_replay {
 public:
  // What a multi-pass launch sees when it begins.
  struct launch_outlook {
    int pass_groups = 0;           // its configuration's one-pass groups (at least 2 here)
    int kernel_replay_passes = 0;  // the passes of its configuration kernel-replayed at once
    std::uint64_t bytes_in_use =
        0;  // the device's memory in use (cuMemGetInfo), CUPTI's save buffer included
    std::uint64_t bytes_free = 0;
    double program_seconds = 0.0;  // the process's own time so far: its wall time less the profiled launches'
    std::optional<std::int64_t>
        launches_to_come;  // selected launches still to come at most, this one included
  };
  // Whether to kernel-replay this launch (true) or profile its first group only (false, and for every later
  // launch of the process).
  [[nodiscard]] bool kernel_replay(const launch_outlook& launch);
  // A launch profiled in one pass took `milliseconds` (the one-pass cost further runs would pay for it).
  void one_pass_launch_took(double milliseconds);
  // The kernel-replayed launch took `milliseconds` with `passes`, and the device's memory in use afterwards
  // was `bytes_in_use_after` (CUPTI keeps its save buffer allocated).
  void kernel_replayed(double milliseconds, int passes, std::uint64_t bytes_in_use_after);
  // Whether a launch has been left to further runs.
  [[nodiscard]] bool left_to_further_runs() const { return m_switched; }
  // The decision, for the run's output: empty until a multi-pass launch was seen.
  [[nodiscard]] const std::string& decision() const { return m_decision; }

  // The estimated cost of kernel-replaying a launch of `passes` passes beyond its first pass, with
  // `program_bytes` of the program's memory saved on the device (validation/h200.md "Replay modes").
  [[nodiscard]] static double estimated_restore_milliseconds(std::uint64_t program_bytes, int passes);

 private:
  bool m_switched = false;
  int m_profiled = 0;  // profiled launches so far, every one pays one pass in a further run
  int m_replayed = 0;
  double m_spent_milliseconds = 0.0;              // kernel replay's cost beyond one pass, summed
  std::optional<double> m_measured_milliseconds;  // the last kernel-replayed launch's cost beyond one pass
  std::optional<double> m_one_pass_milliseconds;
  std::uint64_t m_bytes_before = 0;  // in use as the last kernel-replayed launch began
  std::uint64_t m_save_buffer_bytes = 0;
  std::string m_decision;
};

}  // namespace counterguard
