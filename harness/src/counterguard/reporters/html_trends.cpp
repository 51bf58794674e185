// SPDX-License-Identifier: Apache-2.0
// The HTML report's "Trends" section: which history series are worth a plot, failing ones first, and the
// plots themselves (trend_plot.hpp).
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "detail/html_sections.hpp"

namespace counterguard::detail {
namespace {

// The baseline kernel key a check reads: "total" for the case as a whole (as metric_history names it).
std::string history_kernel_key(const check_outcome& check) {
  return check.kernel.empty() ? "total" : check.kernel;
}

bool failing_point(const history_point& point) {
  return point.verdict == "fail" || point.verdict == "regression" || point.verdict == "missing";
}

std::size_t finite_points(const metric_history& series) {
  return static_cast<std::size_t>(
      std::count_if(series.points.begin(), series.points.end(),
                    [](const history_point& p) { return std::isfinite(p.value); }));
}

// Every run measured the same value under the same band with no failing verdict: a flat line says no more
// than the count of such series does.
bool unchanged(const metric_history& series) {
  const history_point* first = nullptr;
  for (const auto& point : series.points) {
    if (!std::isfinite(point.value))
      continue;
    if (failing_point(point))
      return false;
    if (first == nullptr) {
      first = &point;
      continue;
    }
    if (point.value != first->value || point.band_low != first->band_low ||
        point.band_high != first->band_high)
      return false;
  }
  return true;
}

}  // namespace

std::vector<std::size_t> plotted_series(const run_results& results,
                                        const std::vector<metric_history>& history,
                                        std::size_t& unchanged_count) {
  std::set<std::string> several_kernels;
  for (const auto& result : results.cases) {
    if (result.kernels.size() > 1)
      several_kernels.insert(result.instance);
  }
  std::vector<std::size_t> plotted;
  unchanged_count = 0;
  for (std::size_t i = 0; i < history.size(); ++i) {
    const metric_history& series = history[i];
    const bool case_total = series.kernel.empty() || series.kernel == "total";
    if (finite_points(series) < 2 || (!case_total && several_kernels.count(series.instance) == 0))
      continue;
    if (unchanged(series)) {
      ++unchanged_count;
      continue;
    }
    plotted.push_back(i);
  }
  return plotted;
}

std::vector<ranked_series> trend_order(const judged_run& run, const std::vector<metric_history>& history,
                                       const std::vector<std::size_t>& plotted) {
  const run_results& results = run.results;
  std::set<std::tuple<std::string, std::string, std::string>> failing_now;
  for (std::size_t i = 0; i < results.cases.size(); ++i) {
    const case_result& result = results.cases[i];
    for (std::size_t c = 0; c < result.checks.size(); ++c) {
      if (run.shown[i].checks[c].failing)
        failing_now.emplace(result.instance, history_kernel_key(result.checks[c]), result.checks[c].metric);
    }
  }
  std::vector<ranked_series> ranked;
  for (const std::size_t i : plotted) {
    const metric_history& series = history[i];
    int rank = 2;
    if (std::any_of(series.points.begin(), series.points.end(), failing_point))
      rank = 1;
    if (failing_now.count({series.instance, series.kernel, series.metric}) != 0 ||
        (!series.points.empty() && failing_point(series.points.back())))
      rank = 0;
    ranked.push_back({rank, i});
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const ranked_series& a, const ranked_series& b) { return a.rank < b.rank; });
  return ranked;
}

std::string series_label(const metric_history& series) {
  return series.kernel.empty() || series.kernel == "total" ? series.metric
                                                           : series.metric + " [" + series.kernel + "]";
}

std::string render_trends(const std::vector<metric_history>& history, const std::vector<ranked_series>& order,
                          std::size_t unchanged_count) {
  std::string html = "<section id=\"trends\">\n<h2>Trends (" + std::to_string(order.size()) + ")</h2>\n";
  if (history.empty()) {
    return html +
           "<p class=\"muted\">No history was given for this report: the plots appear when the history store "
           "has earlier runs of this GPU key.</p>\n</section>\n";
  }
  std::set<std::string> runs;
  for (const auto& series : history) {
    for (const auto& point : series.points)
      runs.insert(point.run_id);
  }
  const std::string unchanged_text =
      unchanged_count == 0 ? std::string()
                           : " " + std::to_string(unchanged_count) +
                                 " series held the same value and band in every run and are not drawn.";
  if (order.empty()) {
    return html + "<p class=\"muted\">" +
           (unchanged_count == 0 ? "The history holds " + std::to_string(runs.size()) +
                                       " run(s); a metric is plotted once it has two."
                                 : "Nothing to plot over the " + std::to_string(runs.size()) +
                                       " runs of the history." + unchanged_text) +
           "</p>\n</section>\n";
  }
  const std::size_t failing = static_cast<std::size_t>(
      std::count_if(order.begin(), order.end(), [](const ranked_series& s) { return s.rank < 2; }));
  html += "<details class=\"plots\"" + std::string(failing != 0 ? " open" : "") + "><summary>" +
          std::to_string(order.size()) + " plots over " + std::to_string(runs.size()) + " runs, " +
          std::to_string(failing) +
          " with a failing point</summary>\n<p class=\"muted\">Oldest left, labelled "
          "by commit. Shaded: the baseline band in force at each run. Noisy metrics are lines, exact metrics "
          "steps; red points failed." +
          unchanged_text + "</p>\n<div class=\"trends\">\n";
  for (const auto& [rank, i] : order) {
    const metric_history& series = history[i];
    const bool failing_series = rank < 2;
    html += "<figure id=\"trend-" + std::to_string(i) + "\"" + (failing_series ? " class=\"failing\"" : "") +
            "><figcaption><code>" + esc(series.instance) + "</code> &middot; <code>" +
            esc(series_label(series)) + "</code> <span class=\"muted\">(" + to_string(series.cls) +
            ")</span></figcaption>" + render_trend_plot_svg(series) + "</figure>\n";
  }
  return html + "</div>\n</details>\n</section>\n";
}

}  // namespace counterguard::detail
