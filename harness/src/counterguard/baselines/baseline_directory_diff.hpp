// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/baselines/baseline_update.hpp"
#include "counterguard/core/markdown_budget.hpp"

namespace counterguard {

// What moved in one baseline file between two baseline directories: entries added, removed, or whose value or
// band changed (any field of baseline_entry: value, class, spread, n, direction, tolerance, floor, mean, sd,
// noise kind, false-alarm rate). The file's metadata (date, commit, driver, ...) and schema version are not
// compared: a refresh that only re-dated a file changed nothing a check would see.
struct baseline_file_diff {
  std::string relative_path;  // <gpu_key>/<suite>.yaml
  std::string gpu_key;        // as the file says (the newer side's when both exist)
  std::string suite;
  bool in_old = false;                   // the file exists in the old directory
  bool in_new = false;                   // ... in the new one
  std::vector<baseline_change> changes;  // in file order: instances by name, "total" first, metrics by name
};

// The changes between two versions of a file's cases (either side may be empty), in file order.
[[nodiscard]] std::vector<baseline_change> diff_baseline_cases(
    const std::map<std::string, baseline_case>& before, const std::map<std::string, baseline_case>& after);

// Compares every <gpu_key>/<suite>.yaml under `old_directory` with the same file under `new_directory` (a
// file on one side only is all added or all removed: a new GPU key is a change). Other files are ignored.
// Both directories must exist. Returns the files with at least one change, ordered by relative path. Throws
// input_error for a missing directory or a baseline file that does not parse (naming file:line:column).
[[nodiscard]] std::vector<baseline_file_diff> diff_baseline_directories(const std::string& old_directory,
                                                                        const std::string& new_directory);

// The differences as Markdown (one section per file, as the refresh's change summary shows them), within
// `budget` (render_change_summaries_markdown); "No baseline value or band changed." when there are none.
[[nodiscard]] std::string render_baseline_diff_markdown(const std::vector<baseline_file_diff>& diffs,
                                                        const markdown_budget& budget = {});

}  // namespace counterguard
