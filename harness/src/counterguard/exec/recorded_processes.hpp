// SPDX-License-Identifier: Apache-2.0
// The processes of an exec recording: each one's record and the counter data of the launches it profiled,
// written by the injection library as it goes and read back for evaluation.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "counterguard/evaluator/counter_data_archive.hpp"
#include "counterguard/exec/process_record.hpp"

namespace counterguard {

// What `counterguard exec` records (into --save-counter-data DIR, or a temporary directory), evaluable on any
// machine with `counterguard evaluate DIR`:
//   DIR/exec.json                           the run: suites, cases given on the command line, the program's
//                                           outcome, the results
//   DIR/instructions.json                   what the injection library was told (exec_instructions)
//   DIR/resources.json                      compiler resources of the kernels in the program's binaries
//   DIR/processes/<pid>-<start>/process.json   one per process that loaded the injection (process_record)
//   DIR/processes/<pid>-<start>/NNNN/          one counter-data archive per profiled launch, written as the
//                                              launch completes; its metadata names the cases it serves

// A profiled launch (or, in recordings made from `run` archives, a case's launches) with its counter data.
struct recorded_launch {
  std::vector<std::string> cases;  // the case instances it was profiled for
  archived_case data;              // its launches, one per range of the image
  double seconds = 0.0;            // time spent profiling it
  // Whether the launch attributes (registers, occupancy, ...) could be read: a runtime launch through a host
  // stub, with no driver launch under it, has none, and its "launch" metrics stay unmeasured.
  bool attributes_known = true;
  // The launch with its replay passes (kernel replay restores device memory between passes: the cost grows
  // with what the program holds), and the device memory in use when it began; 0 in older recordings.
  double launch_milliseconds = 0.0;
  std::uint64_t device_bytes_in_use = 0;
  // From its entry callback to the start of the launch: the counters lock and the profiler's set-up.
  double setup_milliseconds = 0.0;
  // The one-pass groups its whole configuration splits into (exec/pass_groups.hpp); 0 where not planned
  // (kernel replay collects the whole configuration at once).
  int pass_groups = 0;
  // Whether this run collected every counter of its configuration (kernel replay, or one group in all);
  // false for a launch whose groups after the first are left to further runs of the program.
  bool every_group_collected = false;
  // What it is matched by across the runs of application replay: its NVTX context (described) and its match
  // ordinal in each of its cases; empty in older recordings.
  std::string nvtx;
  std::vector<std::int64_t> ordinals;
  // The counters other runs of the program collected for this launch (application replay), each with its own
  // image; stored as further cases of the launch's archive.
  std::vector<archived_case> further_groups;
  // Each run's profiling of the launch, the first run's first (merged recordings); empty for one run.
  struct run_time {
    int passes = 0;
    double setup_milliseconds = 0.0;
    double launch_milliseconds = 0.0;
  };
  std::vector<run_time> runs;
};

struct recorded_process {
  std::filesystem::path folder;
  process_record record;
  std::vector<recorded_launch> launches;  // in the order they were profiled
};

// The folder a process records into: DIR/processes/<pid>-<started_ns>.
[[nodiscard]] std::filesystem::path process_folder(const std::filesystem::path& directory,
                                                   const process_identity& process);
// Writes a profiled launch as archive number `index` of the process folder.
void save_recorded_launch(const std::filesystem::path& process_folder, int index, const std::string& chip,
                          const recorded_launch& launch);

// Every process folder under DIR/processes, ordered by start, with its launches. A process whose record is
// missing (it died before writing one) is skipped; a malformed one is an input_error naming the file.
[[nodiscard]] std::vector<recorded_process> load_recorded_processes(const std::filesystem::path& directory);

}  // namespace counterguard
