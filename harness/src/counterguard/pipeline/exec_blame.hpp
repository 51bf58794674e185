// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/exec/recording_directory.hpp"
#include "counterguard/pipeline/exec_run.hpp"
#include "counterguard/runner/regression_blame.hpp"

namespace counterguard {

// Per-instruction profiles of a program's cases, by results instance, from blame passes: the program run
// again under the injection once per case (CUPTI takes one SASS configuration per process), the case's first
// selected launch collected. Each profile's binary is the cubin of the function that launch ran, in a
// recording this object keeps until it goes.
struct program_sass_profiles {
  recorded_sass_profiles recorded;
  std::vector<std::unique_ptr<recording_directory>> recordings;
};

// The request of results instance `instance` ("suite/case", or "suite/case?rank=1" when several processes
// profiled it) among `requests`; null when none made it.
[[nodiscard]] const exec_case_request* request_of_instance(const std::vector<exec_case_request>& requests,
                                                           const std::string& instance);

// The request a blame pass makes of a measured case: its selector's first profiled launch, no counters.
[[nodiscard]] exec_case_request blame_pass_request(const exec_case_request& measured);

// Records the profiles of `instances` (results instance names) of the program `options` runs.
[[nodiscard]] program_sass_profiles record_program_sass_profiles(
    const exec_options& options, const std::vector<exec_case_request>& requests,
    const std::vector<std::string>& instances);

// `exec --blame`: every failed case of `results` blamed to source lines, against the per-line baselines of
// the reports' baseline directory, as `run --blame` blames (regression_blame.hpp). A blame that cannot run
// says why on stderr and never changes the verdict.
void blame_failed_exec_cases(run_results& results, const exec_options& options,
                             const std::vector<exec_case_request>& requests);

}  // namespace counterguard
