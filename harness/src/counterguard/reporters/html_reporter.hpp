// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/checker/judged_run.hpp"
#include "counterguard/history/metric_history.hpp"

namespace counterguard {

// One self-contained HTML page (inline CSS, a few lines of inline JavaScript, inline SVG; nothing is
// fetched when it is viewed) for CI artifacts:
//   - a header: overall verdict, GPU, GPU key, commit, date, host and the run_summary counts;
//   - "Where each case stands": one row per check (shown_checks) with its measured value placed on a bar of
//     the values its expectation or baseline band accepts (check_bar.hpp); failing cases first, then
//     cases where something changed (improvement, new or missing metric), then passing and skipped ones;
//   - "Needs attention": errors, wrong outputs, failed expectations, regressions, missing metrics and
//     improvements, most urgent first, with the YAML file:line where the results carry it;
//   - every suite and case instance in collapsible <details> (failing ones open): verification, where the
//     case is defined, its source-line blame, links to its checks and plots;
//   - trend plots (trend_plot.hpp), collapsed in one <details> unless one fails, failing series first: one
//     per case and metric with at least two recorded runs (per-kernel series only for a case of this run
//     that launched more than one kernel); series that held one value and band in every run are counted,
//     not drawn. Without history the section says so.
// Numbers that are not integers are shown to about six significant digits (display_number.hpp). Every
// text taken from the results or the history is escaped. `history` is what the history store knows of this
// GPU key (the current run included when the store recorded it); it may be empty.
[[nodiscard]] std::string render_html_report(const judged_run& run,
                                             const std::vector<metric_history>& history);

// Writes render_html_report atomically to `path`.
void write_html_report(const std::string& path, const judged_run& run,
                       const std::vector<metric_history>& history);

}  // namespace counterguard
