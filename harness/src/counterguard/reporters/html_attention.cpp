// SPDX-License-Identifier: Apache-2.0
// The HTML report's "Needs attention" section: errors, wrong outputs and every check that did not pass, most
// urgent first, with their values and where they are defined.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "detail/html_sections.hpp"

namespace counterguard::detail {
namespace {

// A value as tables show it ("-" for none).
std::string number_cell(const std::string& shown) {
  return "<td class=\"n\">" + esc(shown) + "</td>";
}

struct attention_item {
  int rank = 0;
  std::size_t case_index = 0;
  const check_outcome* check = nullptr;  // null: the case itself (error, wrong output)
  const shown_check* shown = nullptr;    // check's words
  std::string label;
  std::string detail;
};

std::vector<attention_item> attention_items(const judged_run& run) {
  const run_results& results = run.results;
  std::vector<attention_item> items;
  for (std::size_t i = 0; i < results.cases.size(); ++i) {
    const case_result& result = results.cases[i];
    if (result.status == case_status::error)
      items.push_back({0, i, nullptr, nullptr, "error", result.status_reason});
    if (result.verified && !*result.verified)
      items.push_back({1, i, nullptr, nullptr, "wrong output", result.verification_message});
    for (std::size_t c = 0; c < result.checks.size(); ++c) {
      const check_outcome& check = result.checks[c];
      const shown_check& shown = run.shown[i].checks[c];
      if (check.verdict != check_verdict::new_metric && check.verdict != check_verdict::pass)
        items.push_back({shown.rank, i, &check, &shown, shown.verdict, check.message});
    }
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const attention_item& a, const attention_item& b) { return a.rank < b.rank; });
  return items;
}

}  // namespace

std::string render_attention(const judged_run& run) {
  const run_results& results = run.results;
  const std::vector<attention_item> items = attention_items(run);
  std::string html =
      "<section id=\"attention\">\n<h2>Needs attention (" + std::to_string(items.size()) + ")</h2>\n";
  if (items.empty()) {
    html += "<p>Nothing: every check passed.</p>\n";
  } else {
    html +=
        "<table class=\"attention\">\n<tr><th>verdict</th><th>case</th><th>metric</th><th>expected</th>"
        "<th>measured</th><th>baseline</th><th>delta</th><th>where</th><th>details</th></tr>\n";
    for (const auto& item : items) {
      const case_result& result = results.cases[item.case_index];
      const bool failing = item.shown == nullptr || item.shown->failing;
      html += "<tr class=\"" + std::string(failing ? "bad" : "note") + "\" data-rank=\"" +
              std::to_string(item.rank) + "\"><td class=\"v\">" + esc(item.label) + "</td><td><a href=\"#" +
              case_anchor(item.case_index) + "\"><code>" + esc(result.instance) + "</code></a></td>";
      if (item.check != nullptr) {
        const check_outcome& check = *item.check;
        const shown_check& shown = *item.shown;
        html += "<td><code>" + esc(shown.metric) + "</code></td><td>" + esc(shown.expected) + "</td>" +
                number_cell(shown.measured) + number_cell(shown.baseline) + "<td class=\"n\">" +
                esc(shown.delta) + "</td>" + "<td><code>" +
                esc(source_text(check.source ? check.source : result.source)) + "</code></td>";
      } else {
        html += "<td></td><td></td><td></td><td></td><td></td><td><code>" + esc(source_text(result.source)) +
                "</code></td>";
      }
      html += "<td>" + esc(item.detail) + "</td></tr>\n";
    }
    html += "</table>\n";
  }
  if (run.summary.check_new != 0) {
    html +=
        "<p class=\"muted\">" + std::to_string(run.summary.check_new) +
        " metric(s) have no baseline yet (listed per case below); <code>counterguard baseline update</code> "
        "records them.</p>\n";
  }
  return html + "</section>\n";
}

}  // namespace counterguard::detail
