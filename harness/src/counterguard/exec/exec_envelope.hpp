// SPDX-License-Identifier: Apache-2.0
// The parent's part of an exec recording (recorded_processes.hpp lays out the whole directory): exec.json,
// the run as `counterguard exec` saw it, and resources.json, the compiler resources of the program's kernels.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/exec/program_outcome.hpp"
#include "counterguard/results/run_results.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// The parent's part of the recording.
struct exec_envelope {
  std::vector<std::string> suite_paths;
  std::vector<exec_case_request> command_line_cases;  // selected with --kernel-name / --nvtx-include
  std::vector<std::string> extra_metrics;             // --metric
  program_outcome program;
  bool allow_program_failure = false;
  run_results results;
};

inline constexpr const char* exec_envelope_file = "exec.json";
inline constexpr const char* exec_instructions_file = "instructions.json";

// Whether DIR holds an exec recording (its exec.json).
[[nodiscard]] bool is_exec_recording(const std::filesystem::path& directory);
void save_exec_envelope(const std::filesystem::path& directory, const exec_envelope& envelope);
[[nodiscard]] exec_envelope load_exec_envelope(const std::filesystem::path& directory);

void save_recorded_resources(const std::filesystem::path& directory,
                             const std::vector<kernel_resources>& resources);
// Empty when the recording has no resources.json.
[[nodiscard]] std::vector<kernel_resources> load_recorded_resources(const std::filesystem::path& directory);

}  // namespace counterguard
