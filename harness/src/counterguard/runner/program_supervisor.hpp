// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "counterguard/exec/program_outcome.hpp"

namespace counterguard {

// A program to run under `counterguard exec`.
struct program_launch {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH when it has no '/'
  std::vector<std::pair<std::string, std::string>> environment;  // set on top of this process's environment
  double timeout_seconds = 0.0;                                  // 0: no timeout
  double leftover_grace_seconds = 2.0;  // how long processes the program left behind get after SIGTERM
};

// Runs the program in a process group of its own, with this process's standard input, output and error, and
// waits until it exits, the timeout passes or (with an interruption_guard alive) a signal arrives. On a
// timeout or a signal the whole group is stopped (SIGTERM, then SIGKILL); when the program exits, processes
// it left running in its group are stopped the same way, so nothing keeps a GPU's counters after the run. The
// program dies with this process even if this one is killed with SIGKILL.
// Throws input_error when the program cannot be started (not found, not executable), environment_error when
// no process can be created and interrupted_error when a signal stopped it.
[[nodiscard]] program_outcome run_program(const program_launch& launch);

// The path argv[0] resolves to (PATH search for a bare name), or empty when there is none.
[[nodiscard]] std::string resolve_program(const std::string& name);

}  // namespace counterguard
