// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/build_info.hpp"
#include "counterguard/model/case_instance.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Which case instances a command works on: the suites at `paths`, those whose names match `filter`.
struct selection_options {
  std::vector<std::string> paths{"cases"};
  std::string filter;
  std::string chip = COUNTERGUARD_DEFAULT_CHIP;  // raw CUPTI metric names are validated for this chip
  // Whether cases that select launches of a program (`select:`, for `exec`) may be among them; commands that
  // run registered variants refuse them with a message that says to use `exec`.
  bool allow_program_cases = false;
};

// `selection` as a recording is evaluated: the suites it was made from (`suite_paths`) where none are named,
// and the chip of its device (`metadata`) where it had one. A chip the installed CUPTI does not know is an
// input_error naming `recording_file` (the recording's run.json or exec.json) and its field.
[[nodiscard]] selection_options recorded_selection(selection_options selection,
                                                   const std::vector<std::string>& suite_paths,
                                                   const run_metadata& metadata,
                                                   const std::string& recording_file);

// Loads, expands and filters the selected suites; validates raw CUPTI metric names for the chip.
[[nodiscard]] std::vector<case_instance> select_instances(const selection_options& selection);
// The same without the metric names' check (a GPU worker checks them for its chip while CUDA starts).
[[nodiscard]] std::vector<case_instance> load_instances(const selection_options& selection);
// Every raw CUPTI metric the instances need exists on `chip` (raw_metric_name_check.hpp), else input_error.
void validate_raw_metric_names(const std::vector<case_instance>& instances, const std::string& chip);

}  // namespace counterguard
