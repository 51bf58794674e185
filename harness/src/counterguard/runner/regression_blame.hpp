// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "counterguard/blame/blame_diff.hpp"
#include "counterguard/blame/line_profile.hpp"
#include "counterguard/blame/sass_profile.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// How `counterguard blame` is started to record per-instruction profiles: in a process of its own, after the
// range profiler's workers are gone (the two were not verified together in one process).
struct sass_recording_options {
  std::string executable;  // this program: its registered variants and their cubins
  std::vector<std::string> suite_paths;
  std::string chip;  // the chip raw metric names are validated for (--chip)
  int device = 0;
  double timeout_seconds = 600.0;
};

// What a recording pass gave: a profile per case instance, and why there are none when it failed.
struct recorded_sass_profiles {
  std::map<std::string, sass_profile> by_instance;
  std::string problem;  // empty when the pass ran
};

// Records the per-instruction counters of `instances` (exact names) with one `blame --record-dir` process.
[[nodiscard]] recorded_sass_profiles record_sass_profiles(const std::vector<std::string>& instances,
                                                          const sass_recording_options& options);

// The blame metrics for `metrics` (alias or raw names) that `profile` collected, most telling first.
[[nodiscard]] std::vector<std::string> blame_metrics_of(const std::vector<std::string>& metrics,
                                                        const sass_profile& profile);

// A change of a line as the reports show it (describe_blamed_line renders it).
[[nodiscard]] blamed_source_line blamed_line_of(const blame_change& change);

// Which cases to blame and how much to show.
struct regression_blame_options {
  bool every_failure = false;    // --blame: every failing check; else only exact metrics that regressed
  std::size_t top = 5;           // lines per case
  std::string baseline_dir;      // where the per-line baselines are (empty: none)
  line_attribution attribution;  // which frame of inlined code is the line (--blame-external)
};

// The failing metrics of `result` that ask for blame: with `every_failure` each failing check's metric, else
// those of exact class (a regression against the baseline or a violated expectation). Empty: no blame.
[[nodiscard]] std::vector<std::string> metrics_to_blame(const case_result& result, bool every_failure);

// Blames `result` from its recorded profile: the lines carrying the blame metrics of the regressed ones (the
// metric catalog's raw counters decide which, metric_blame_counterparts.hpp), under `attribution`; before ->
// after against `before` (the per-line baseline's profile of the case, read from `before_path`) when there is
// one, its lines keyed as the baseline's were (a note says so when that is not `attribution`), changes of
// instruction kind on a line included.
[[nodiscard]] case_blame blame_case(const std::vector<std::string>& regressed, const sass_profile& profile,
                                    const line_profile* before, std::size_t top,
                                    const line_attribution& attribution = {},
                                    const std::string& before_path = "");

// The profiles of a `blame --record-dir` directory (its index.json names each instance's file), each joined
// against `binary` (empty: the program each profile names). An unreadable directory is an input_error.
[[nodiscard]] recorded_sass_profiles load_sass_profiles(const std::string& directory,
                                                        const std::string& binary = "");

// Every case of `results` with metrics to blame: records their profiles (one process) and attaches a blame.
// Returns how many cases were blamed.
std::size_t blame_regressions(run_results& results, const regression_blame_options& options,
                              const sass_recording_options& recording);

// The same from profiles recorded before (`evaluate --blame-from`): a case with metrics to blame and no
// profile there gets a note saying so.
std::size_t blame_regressions(run_results& results, const regression_blame_options& options,
                              const recorded_sass_profiles& recorded);

}  // namespace counterguard
