// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "counterguard/history/run_comparison.hpp"

namespace counterguard {

struct comparison_report_options {
  bool show_unchanged = false;  // also list the metrics that did not move (the JSON always has every one)
};

// The console table: a header naming both sides, one row per metric that moved or exists on one side only,
// the cases found on one side only, and a summary line with the counts.
[[nodiscard]] std::string render_comparison_console(const run_comparison& comparison,
                                                    const comparison_report_options& options);

// The same as Markdown (for a pull-request comment or a CI job summary).
[[nodiscard]] std::string render_comparison_markdown(const run_comparison& comparison,
                                                     const comparison_report_options& options);

// Every compared metric as JSON (docs/history.md, "Compare JSON").
[[nodiscard]] nlohmann::json comparison_json(const run_comparison& comparison);

// The summary line: "412 metrics compared: 400 unchanged, 1 changed, ...".
[[nodiscard]] std::string comparison_summary_line(const run_comparison& comparison);

}  // namespace counterguard
