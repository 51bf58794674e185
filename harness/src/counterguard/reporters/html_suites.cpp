// SPDX-License-Identifier: Apache-2.0
// The HTML report's "Suites" section: every suite and case instance in collapsible <details> (failing ones
// open) with its verification, where it is defined, its source-line blame and links to its checks and plots.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "detail/html_sections.hpp"

namespace counterguard::detail {
namespace {

// The source lines a failed case's regressed counters come from (run's blame, docs/blame.md).
std::string render_blame(const case_blame& blame, const shown_case& shown) {
  std::string html = "<p><strong>source lines</strong> of " + esc(shown.regressed) +
                     (blame.against_baseline ? " (against the per-line baseline)" : "") + "</p>\n";
  if (!blame.note.empty())
    html += "<p class=\"muted\">" + esc(blame.note) + "</p>\n";
  if (blame.lines.empty())
    return html;
  html +=
      "<table class=\"blame\"><tr><th>line</th><th>instruction</th><th>counter</th><th>before</th>"
      "<th>now</th><th>function</th></tr>\n";
  for (std::size_t i = 0; i < blame.lines.size(); ++i) {
    const blamed_source_line& line = blame.lines[i];
    const std::string& kinds = shown.blame_lines[i].kind_change;
    html += "<tr><td><code>" + esc(shown.blame_lines[i].place) + "</code></td><td><code>" + esc(line.sass) +
            "</code>" + (kinds.empty() ? "" : "<br>" + esc(kinds)) + "</td><td>" + esc(line.metric) +
            "</td><td class=\"n\">" + (line.before ? std::to_string(*line.before) : "-") +
            "</td><td class=\"n\">" + std::to_string(line.after) + "</td><td><code>" + esc(line.function) +
            "</code></td></tr>\n";
  }
  return html + "</table>\n";
}
std::string render_case(const judged_run& run, std::size_t index,
                        const std::vector<std::pair<std::size_t, std::string>>& plots) {
  const case_result& result = run.results.cases[index];
  const case_status outcome = run.statuses[index];
  const char* status = to_string(outcome);
  const bool failing = outcome == case_status::failed || outcome == case_status::error;
  std::size_t failing_checks = 0;
  for (const auto& check : run.shown[index].checks)
    failing_checks += check.failing ? 1 : 0;
  std::string html =
      "<details class=\"case" + std::string(failing ? " failing" : "") + "\" id=\"" + case_anchor(index) +
      "\"" + (failing ? " open" : "") + "><summary><span class=\"badge " + status + "\">" + status +
      "</span> <code>" + esc(result.instance) + "</code> <span class=\"muted\">" +
      std::to_string(result.checks.size()) + " checks, " + std::to_string(failing_checks) + " failing, " +
      fmt::format("{:.2f}", std::isfinite(result.seconds) ? result.seconds : 0.0) + " s</span></summary>\n";
  std::string facts;
  if (!result.status_reason.empty())
    facts += esc(result.status_reason) + "<br>";
  if (result.verified)
    facts += *result.verified ? "output verified against the CPU reference"
                              : "<strong>wrong output</strong>: " + esc(result.verification_message);
  if (result.unverified)
    facts += "<strong>unverified</strong>: the variant registers no verification; its output was not checked";
  if (result.source)
    facts += " &middot; defined at <code>" + esc(source_text(result.source)) + "</code>";
  if (!result.checks.empty())
    facts += " &middot; <a href=\"#standing-" + std::to_string(index) + "\">its checks</a>";
  if (!plots.empty()) {
    facts += " &middot; trends:";
    for (const auto& [plot, metric] : plots)
      facts += " <a href=\"#trend-" + std::to_string(plot) + "\">" + esc(metric) + "</a>";
  }
  if (!facts.empty())
    html += "<p>" + facts + "</p>\n";
  if (result.blame)
    html += render_blame(*result.blame, run.shown[index]);
  return html + "</details>\n";
}

}  // namespace

std::string render_suites(const judged_run& run, const plot_index& plots) {
  const run_results& results = run.results;
  std::vector<std::string> order;  // suites in the order the results first name them
  std::map<std::string, std::vector<std::size_t>> cases;
  for (std::size_t i = 0; i < results.cases.size(); ++i) {
    const std::string& suite = results.cases[i].suite;
    if (cases.count(suite) == 0)
      order.push_back(suite);
    cases[suite].push_back(i);
  }
  std::string html = "<section id=\"suites\">\n<h2>Suites (" + std::to_string(order.size()) + ")</h2>\n";
  for (const auto& suite : order) {
    std::size_t passed = 0, failed = 0, skipped = 0, errors = 0;
    for (const std::size_t i : cases[suite]) {
      switch (run.statuses[i]) {
        case case_status::passed:
          ++passed;
          break;
        case case_status::failed:
          ++failed;
          break;
        case case_status::skipped:
          ++skipped;
          break;
        case case_status::error:
          ++errors;
          break;
      }
    }
    const bool failing = failed + errors != 0;
    html += "<details class=\"suite" + std::string(failing ? " failing" : "") + "\"" +
            (failing ? " open" : "") + "><summary>" + esc(suite) + " <span class=\"muted\">" +
            std::to_string(cases[suite].size()) + " cases: " + std::to_string(passed) + " passed, " +
            std::to_string(failed) + " failed, " + std::to_string(skipped) + " skipped, " +
            std::to_string(errors) + " errors</span></summary>\n";
    static const std::vector<std::pair<std::size_t, std::string>> no_plots;
    for (const std::size_t i : cases[suite]) {
      const auto found = plots.find(results.cases[i].instance);
      html += render_case(run, i, found == plots.end() ? no_plots : found->second);
    }
    html += "</details>\n";
  }
  return html + "</section>\n";
}

}  // namespace counterguard::detail
