// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/model/case_instance.hpp"
#include "counterguard/pipeline/case_selection.hpp"
#include "counterguard/pipeline/judgement.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Why a `static` run's results hold no counters (run_metadata::counters_not_run).
inline constexpr const char* static_command_reason = "`static` does not profile; `run` does, on a GPU";

// Static measurements and checks for every instance, from the compiler reports embedded in this program (no
// GPU); only static expectations are checked, the others are counted as counter checks not run.
[[nodiscard]] run_results static_results(const std::vector<case_instance>& instances,
                                         const std::string& command_line);

// `counterguard static`: the resource table of the selected cases' kernels and their static checks, judged
// and reported (no baselines); returns the exit status.
int run_static_checks(const selection_options& selection, const report_options& reports,
                      const std::string& command_line);

// `static --binary`: the kernels' resources read from compiled programs, libraries, cubins or fat binaries.
struct static_binary_options {
  std::vector<std::string> binaries;
  std::string json;
  bool quiet = false;
  std::string command_line;
  // With --cases: the static expectations of these suites' cases checked against the binaries' kernels,
  // reported with `reports` (its json stays the binaries' JSON above).
  selection_options cases;
  report_options reports;
};

// Prints (and with --json writes) every kernel's resources; with cases, checks them; returns the exit status.
int check_static_binaries(const static_binary_options& options);

}  // namespace counterguard
