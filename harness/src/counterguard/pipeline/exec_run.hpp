// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/exec/exec_recording.hpp"
#include "counterguard/exec/program_outcome.hpp"
#include "counterguard/exec/recording_directory.hpp"
#include "counterguard/exec/replay_mode.hpp"
#include "counterguard/pipeline/case_selection.hpp"
#include "counterguard/pipeline/judgement.hpp"
#include "counterguard/pipeline/recording_evaluation.hpp"

namespace counterguard {

// `counterguard exec [--cases F.yaml] [options] -- ./program args...`: runs an unmodified program with the
// counterguard injection library loaded into each of its processes, profiles the kernel launches the cases
// select, and checks them like `run` (docs/exec.md).
struct exec_options {
  selection_options selection;
  report_options reports;
  std::string kernel_name;
  std::string nvtx_include;
  std::int64_t launch_skip = 0;
  std::int64_t launch_count = 0;  // 0: not given
  std::int64_t max_launches = 0;  // 0: not given
  std::vector<std::string> extra_metrics;
  std::vector<std::string> binaries;
  std::vector<std::string> program;
  std::string save_counter_data;
  double timeout_seconds = 600.0;
  double wait_for_gpu_seconds = 600.0;
  bool allow_program_failure = false;
  replay_mode replay = replay_mode::kernel;  // --replay-mode
  std::string command_line;
  bool blame = false;                       // --blame: failed cases blamed to source lines (exec_blame.hpp)
  std::size_t blame_top = 5;                // source lines per blamed case
  std::vector<std::string> blame_external;  // --blame-external: third-party include directories
};

// Returns the exit status.
int run_exec(const exec_options& options);

// One run of the program under the injection, measured and its expectations checked, not yet judged against
// baselines or reported: what `exec` reports and what `baseline update SUITE -- PROGRAM` merges.
struct exec_measurement {
  run_results results;  // the program's own case ("exec/program") first
  program_outcome program;
  std::vector<recorded_process> processes;  // what each process recorded (kernels launched, case progress)
  std::vector<exec_case_request> requests;  // what the injection was asked for, case by case
};
[[nodiscard]] exec_measurement measure_program(const exec_options& options);

// The program `options` runs, once more under the injection, as a blame pass (the request file
// `blame_request_path`, exec/blamed_launches.hpp) for `requests`, recording into `recording`.
[[nodiscard]] program_outcome run_program_blame_pass(const exec_options& options,
                                                     const std::vector<exec_case_request>& requests,
                                                     const recording_directory& recording,
                                                     const std::string& blame_request_path);

// The program run once with the injection library and no case: every process's record of the kernels it
// launched, with counts and NVTX contexts (what `counterguard record` writes a suite from).
struct program_launches {
  program_outcome program;
  std::vector<recorded_process> processes;
};
[[nodiscard]] program_launches record_program_launches(const std::vector<std::string>& program,
                                                       double timeout_seconds, double wait_for_gpu_seconds);

// `evaluate DIR` for a directory recorded by `counterguard exec`; returns the exit status.
int evaluate_exec_recording_directory(const evaluate_options& options);

// A directory recorded by `counterguard exec` measured again without a GPU, its expectations checked, under
// `metadata.mode` "evaluate" (`evaluate DIR`, and `baseline update --from-recording DIR`).
[[nodiscard]] run_results evaluate_exec_recording_results(const evaluate_options& options);

}  // namespace counterguard
