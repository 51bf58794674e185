// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/results/run_results.hpp"
#include "counterguard/runner/regression_blame.hpp"

namespace counterguard {

// What `baseline update --with-lines` wrote.
struct line_baseline_refresh {
  std::vector<std::string> written;       // the .lines.json files
  std::vector<std::string> not_recorded;  // "<instance>: why"
  // "<file>: <instance>" of instances not measured this time whose lines are keyed another way (recorded by
  // an older counterguard, or with other --blame-external directories): run compares with them that way.
  std::vector<std::string> keyed_otherwise;
};

// The instances of `measured` a per-line baseline is recorded for: measured (not skipped, not in error),
// with exact counters, in a suite of their own (not `exec`'s command-line cases).
[[nodiscard]] std::vector<std::string> line_baseline_instances(const run_results& measured);

// Records the per-instruction counters of every case in `measured` that has exact counters (one `blame`
// process), reduces each to its source lines and the blame metrics of those counters, and writes them into
// baselines/<gpu_key>/<suite>.lines.json, keeping the instances it did not measure. Every file is computed
// before any is written; each is written atomically. Lines are blamed under `attribution`.
[[nodiscard]] line_baseline_refresh refresh_line_baselines(const run_results& measured,
                                                           const std::string& baseline_dir,
                                                           const sass_recording_options& recording,
                                                           const line_attribution& attribution = {});
// The same from profiles recorded already (a program's blame pass, pipeline/exec_blame.hpp), by instance.
[[nodiscard]] line_baseline_refresh refresh_line_baselines(const run_results& measured,
                                                           const std::string& baseline_dir,
                                                           const recorded_sass_profiles& recorded,
                                                           const line_attribution& attribution = {});

}  // namespace counterguard
