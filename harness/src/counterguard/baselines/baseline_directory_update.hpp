// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <set>
#include <string>
#include <vector>

#include "counterguard/baselines/baseline_update.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// One suite's baseline file after a refresh: where it is, whether it was written, and what changed.
struct suite_baseline_update {
  std::string path;
  bool written = false;
  baseline_update_result update;
};

// Merges `repetitions` into the baseline file of each of `suites`, <directory>/<gpu_key>/<suite>.yaml, for
// `baseline update` and the C ABI alike. Every suite's update is computed before any file is written: a
// baseline file that cannot be read (input_error), or an interruption, stops the refresh with nothing
// written. A file is rewritten only when a value or band changed, or it is new: a refresh that measured the
// same values leaves the file, its date and commit untouched, so a nightly job has nothing to propose.
[[nodiscard]] std::vector<suite_baseline_update> update_baseline_directory(
    const std::string& directory, const std::string& gpu_key, const std::set<std::string>& suites,
    const std::vector<run_results>& repetitions, const baseline_refresh_options& options);

}  // namespace counterguard
