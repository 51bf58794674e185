#pragma once

#include <string>
#include <vector>

#include "counterguard/history/metric_history.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// One self-contained HTML page (inline CSS, a few lines of inline JavaScript, inline SVG; nothing is
// fetched when it is viewed) for CI artifacts:
//   - a header: overall verdict, GPU, GPU key, commit, date, host and the run_summary counts;
//   - "Needs attention": errors, wrong outputs, failed expectations, regressions, missing metrics and
//     improvements, most urgent first, with the YAML file:line where the results carry it;
//   - every suite and case instance with all its checks, in collapsible <details> (failing ones open);
//   - trend plots, one per entry of `history` (trend_plot.hpp), failing series first; without history
//     the section says so.
// Every text taken from the results or the history is escaped. `history` is what the history store knows
// of this GPU key (the current run included when the store recorded it); it may be empty.
[[nodiscard]] std::string render_html_report(const run_results& results,
                                             const std::vector<metric_history>& history, bool strict);

// Writes render_html_report atomically to `path`.
void write_html_report(const std::string& path, const run_results& results,
                       const std::vector<metric_history>& history, bool strict);

}  // namespace counterguard
