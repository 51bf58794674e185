// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace counterguard {

// `counterguard record FILE -- PROGRAM ARGS`: the program run (`runs` times) with the injection library and
// no case, and a suite written to FILE selecting what it launched in every run (exec/program_suite.hpp).
struct record_options {
  std::string file;
  std::vector<std::string> program;
  int runs = 2;                      // the launches that are the same in every run are what a suite gates
  std::vector<std::string> metrics;  // empty: default_program_metrics()
  std::string suite;                 // empty: from the file's name
  bool force = false;                // write over an existing FILE
  double timeout_seconds = 600.0;
  double wait_for_gpu_seconds = 600.0;
  bool allow_program_failure = false;
};

// Returns the exit status.
int record_program_suite(const record_options& options);

}  // namespace counterguard
