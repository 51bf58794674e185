// SPDX-License-Identifier: Apache-2.0
// The HTML report's "Needs attention" section: errors, wrong outputs and every check that did not pass, most
// urgent first, with their values and where they are defined.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/reporters/display_number.hpp"
#include "counterguard/reporters/shown_checks.hpp"
#include "detail/html_sections.hpp"

namespace counterguard::detail {
namespace {

std::string number_cell(const std::optional<double>& value) {
  return "<td class=\"n\">" + (value ? esc(format_display_value(*value)) : std::string("-")) + "</td>";
}

struct attention_item {
  int rank = 0;
  std::size_t case_index = 0;
  const check_outcome* check = nullptr;  // null: the case itself (error, wrong output)
  std::string label;
  std::string detail;
};

std::vector<attention_item> attention_items(const judged_run& run) {
  const run_results& results = run.results;
  std::vector<attention_item> items;
  for (std::size_t i = 0; i < results.cases.size(); ++i) {
    const case_result& result = results.cases[i];
    if (result.status == case_status::error)
      items.push_back({0, i, nullptr, "error", result.status_reason});
    if (result.verified && !*result.verified)
      items.push_back({1, i, nullptr, "wrong output", result.verification_message});
    for (const auto& check : result.checks) {
      if (check.verdict != check_verdict::new_metric && check.verdict != check_verdict::pass)
        items.push_back({run.rank(check), i, &check, shown_verdict(check.verdict), check.message});
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
      const bool failing = item.check == nullptr || run.fails(*item.check);
      html += "<tr class=\"" + std::string(failing ? "bad" : "note") + "\" data-rank=\"" +
              std::to_string(item.rank) + "\"><td class=\"v\">" + esc(item.label) + "</td><td><a href=\"#" +
              case_anchor(item.case_index) + "\"><code>" + esc(result.instance) + "</code></a></td>";
      if (item.check != nullptr) {
        const check_outcome& check = *item.check;
        html += "<td><code>" + esc(shown_metric(check)) + "</code></td><td>" +
                esc(round_numbers_in(check.expected)) + "</td>" + number_cell(check.measured) +
                number_cell(check.baseline) + "<td class=\"n\">" + esc(shown_delta(check)) + "</td>" +
                "<td><code>" + esc(source_text(check.source ? check.source : result.source)) + "</code></td>";
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
