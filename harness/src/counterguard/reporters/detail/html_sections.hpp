// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sections of the HTML report (html_reporter.hpp) and the small text helpers they share: each section
// renders one part of <main>; html_reporter.cpp puts the page around them.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "counterguard/checker/judged_run.hpp"
#include "counterguard/history/metric_history.hpp"
#include "counterguard/reporters/trend_plot.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard::detail {

// Every text taken from the results or the history goes through this.
[[nodiscard]] inline std::string esc(const std::string& text) {
  return html_escape(text);
}

// "file:line" of where a case or check is defined; empty when the results do not say.
[[nodiscard]] inline std::string source_text(const std::optional<source_location>& where) {
  if (!where || where->file.empty())
    return {};
  return where->file + (where->line > 0 ? ":" + std::to_string(where->line) : std::string());
}

// The id of a case's <details> in the suites section, which the other sections link to.
[[nodiscard]] inline std::string case_anchor(std::size_t index) {
  return "case-" + std::to_string(index);
}

// "Where each case stands" (html_standing.cpp).
[[nodiscard]] std::string render_standing(const judged_run& run);

// "Needs attention" (html_attention.cpp).
[[nodiscard]] std::string render_attention(const judged_run& run);

// instance -> (plot number, metric label) of the trend plots about it.
using plot_index = std::map<std::string, std::vector<std::pair<std::size_t, std::string>>>;

// Every suite and case in collapsible <details> (html_suites.cpp).
[[nodiscard]] std::string render_suites(const judged_run& run, const plot_index& plots);

// A series to plot: its index in the history and how urgent it is (0: failing now, 1: failed before, 2:
// fine).
struct ranked_series {
  int rank = 2;
  std::size_t index = 0;
};

// The trend plots (html_trends.cpp): which series are worth a plot, their order, their labels, the section.
// The series worth a plot: at least two recorded runs; one per case and metric (a per-kernel series only
// for a case of this run that launched more than one kernel, else it repeats the case total); not
// unchanged. `unchanged_count` counts those left out for being unchanged.
[[nodiscard]] std::vector<std::size_t> plotted_series(const run_results& results,
                                                      const std::vector<metric_history>& history,
                                                      std::size_t& unchanged_count);

// The plotted series in display order: failing in this run or at their latest point first, then those
// that failed before, then the rest (each group in the order given).
[[nodiscard]] std::vector<ranked_series> trend_order(const judged_run& run,
                                                     const std::vector<metric_history>& history,
                                                     const std::vector<std::size_t>& plotted);

// The metric, with its kernel unless the series is the case total.
[[nodiscard]] std::string series_label(const metric_history& series);

// The plots, collapsed in one <details> (open when one of them fails).
[[nodiscard]] std::string render_trends(const std::vector<metric_history>& history,
                                        const std::vector<ranked_series>& order, std::size_t unchanged_count);

}  // namespace counterguard::detail
