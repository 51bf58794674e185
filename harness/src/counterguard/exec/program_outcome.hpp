// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// How the program `counterguard exec` ran ended.
struct program_outcome {
  std::vector<std::string> argv;
  std::optional<int> exit_status;  // set when it exited
  std::optional<int> signal;       // set when a signal ended it
  bool core_dumped = false;
  bool timed_out = false;  // still running after the timeout: counterguard killed it
  double timeout_seconds = 0.0;
  double seconds = 0.0;  // wall time

  [[nodiscard]] bool succeeded() const { return exit_status && *exit_status == 0 && !timed_out; }
  // "exited with status 0 after 1.25 s", "was killed by signal 11 (SIGSEGV, core dumped) after 0.40 s",
  // "ran longer than the timeout of 600 s and was killed".
  [[nodiscard]] std::string describe() const;
};

// The program's outcome as a case of the results ("exec/program") with one check (metric "exit_status",
// origin "program"), so that every reporter shows it and a program that fails fails the run: it passes when
// the program exited with status 0, fails otherwise unless `failure_allowed` (--allow-program-failure). A
// program killed by a signal measures 128 + the signal; one that timed out measures nothing.
[[nodiscard]] case_result program_case_result(const program_outcome& outcome, bool failure_allowed);

[[nodiscard]] nlohmann::json program_outcome_to_json(const program_outcome& outcome);
// Throws input_error naming `file` and the field for a malformed document.
[[nodiscard]] program_outcome program_outcome_from_json(const nlohmann::json& document,
                                                        const std::string& file, const std::string& field);

}  // namespace counterguard
