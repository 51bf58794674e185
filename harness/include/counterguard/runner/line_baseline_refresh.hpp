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
};

// Records the per-instruction counters of every case in `measured` that has exact counters (one `blame`
// process), reduces each to its source lines and the blame metrics of those counters, and writes them into
// baselines/<gpu_key>/<suite>.lines.json, keeping the instances it did not measure. Every file is computed
// before any is written; each is written atomically.
[[nodiscard]] line_baseline_refresh refresh_line_baselines(const run_results& measured,
                                                           const std::string& baseline_dir,
                                                           const sass_recording_options& recording);

}  // namespace counterguard
