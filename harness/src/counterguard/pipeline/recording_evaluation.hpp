// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "counterguard/pipeline/case_selection.hpp"
#include "counterguard/pipeline/judgement.hpp"

namespace counterguard {

// `counterguard evaluate DIR`: a recording (`run --save-counter-data` or `exec --save-counter-data`)
// measured again without a GPU, judged and reported as the run was.
struct evaluate_options {
  std::string directory;
  selection_options selection;  // paths empty: the suites the recording used
  report_options reports;
  std::vector<std::string> cost_from;  // default: the recording's own per-case seconds
  std::string shard;
  std::string command_line;
  // --blame-from: per-instruction profiles recorded with `blame --record-dir` on the GPU, so that the failed
  // cases are blamed to source lines offline as `run` blames them (docs/blame.md).
  std::string blame_from;
  std::string blame_binary;  // the program whose cubins the profiles are joined to (default: this one)
  std::size_t blame_top = 5;
  std::vector<std::string> blame_external;
};

// Returns the exit status.
int evaluate_recording_directory(const evaluate_options& options);

// The whole recording (no shard) measured again and its expectations checked, not yet judged against
// baselines: one repetition of `baseline update --from-recording DIR`. Throws input_error when it holds none
// of the selected case instances.
[[nodiscard]] run_results evaluate_recording_results(const evaluate_options& options);

}  // namespace counterguard
