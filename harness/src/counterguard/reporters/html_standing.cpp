// SPDX-License-Identifier: Apache-2.0
// The HTML report's first section, "Where each case stands": one row per shown check with its measured value
// on a bar of the accepted values, cases ranked by how they stand.
#include <algorithm>
#include <string>
#include <vector>

#include "counterguard/reporters/check_bar.hpp"
#include "detail/html_sections.hpp"

namespace counterguard::detail {
namespace {

// A listed check with its words.
struct standing_check {
  const check_outcome* check = nullptr;
  const shown_check* shown = nullptr;
};

// "bad": fails the case; "ok": passes; "note": reported without failing (new metric, lenient improvement).
const char* row_class(const standing_check& row) {
  if (row.shown->failing)
    return "bad";
  return row.check->verdict == check_verdict::pass ? "ok" : "note";
}

// Where a row stands: 0 fails the case, 1 changed without failing (improvement, new, missing), 2 passes.
int standing_rank(const standing_check& row) {
  if (row.shown->failing)
    return 0;
  return row.check->verdict == check_verdict::pass ? 2 : 1;
}

// Where a case stands: 0 failed or error, 1 something changed, 2 passed, 3 skipped.
int standing_rank(case_status status, const std::vector<standing_check>& checks) {
  switch (status) {
    case case_status::failed:
    case case_status::error:
      return 0;
    case case_status::skipped:
      return 3;
    case case_status::passed:
      break;
  }
  for (const auto& check : checks) {
    if (standing_rank(check) < 2)
      return 1;
  }
  return 2;
}

// One row: metric, expected, the bar, measured, verdict (the case's first row gets the case cell, which
// spans the case's rows).
std::string standing_row(const char* row, const std::string& metric, const std::string& expected,
                         const std::string& bar, const std::string& measured, const std::string& verdict) {
  return "<tr class=\"" + std::string(row) + "\"><td>" + metric + "</td><td>" + expected + "</td><td>" + bar +
         "</td><td>" + measured + "</td><td>" + verdict + "</td></tr>\n";
}

}  // namespace

// The first picture: every case against its expectations and baseline bands, one row per check
// (shown_checks), each with its measured value placed on a bar of the accepted values. Cases that fail come
// first, then those where something changed, then those that pass, then the skipped ones; within a case,
// failing checks first.
std::string render_standing(const judged_run& run) {
  const run_results& results = run.results;
  struct ranked_case {
    int rank = 0;
    std::size_t index = 0;
    std::vector<standing_check> checks;
  };
  std::vector<ranked_case> cases;
  std::size_t rows = 0;
  for (std::size_t i = 0; i < results.cases.size(); ++i) {
    std::vector<standing_check> checks;
    for (std::size_t c = 0; c < run.shown[i].checks.size(); ++c) {
      if (run.shown[i].checks[c].listed)
        checks.push_back({&results.cases[i].checks[c], &run.shown[i].checks[c]});
    }
    std::stable_sort(checks.begin(), checks.end(), [](const standing_check& a, const standing_check& b) {
      return standing_rank(a) < standing_rank(b);
    });
    rows += checks.size();
    cases.push_back({standing_rank(run.statuses[i], checks), i, std::move(checks)});
  }
  std::stable_sort(cases.begin(), cases.end(),
                   [](const ranked_case& a, const ranked_case& b) { return a.rank < b.rank; });
  std::string html =
      "<section id=\"standing\">\n<h2>Where each case stands (" + std::to_string(rows) +
      " checks)</h2>\n<p class=\"muted\">Shaded: the values the expectation or baseline "
      "accepts; tick: the baseline value; dot: the measurement. Failing cases first, then cases "
      "where something changed.</p>\n<table class=\"standing\">\n<thead><tr><th>case</th>"
      "<th>metric</th><th>expected</th><th>where it stands</th><th>measured</th>"
      "<th>verdict</th></tr></thead>\n";
  static const char* const case_classes[] = {"bad", "note", "ok", "ok"};
  for (const auto& [rank, index, checks] : cases) {
    const case_result& result = results.cases[index];
    std::vector<std::string> lines;
    if (result.status == case_status::skipped || result.status == case_status::error) {
      const bool error = result.status == case_status::error;
      lines.push_back(standing_row(error ? "bad" : "ok", "-", "-", "", "-",
                                   (error ? "error: " : "skipped: ") + esc(result.status_reason)));
    }
    if (result.verified && !*result.verified) {
      lines.push_back(
          standing_row("bad", "(output)", "-", "", "-", "wrong output: " + esc(result.verification_message)));
    }
    for (const auto& row : checks) {
      const check_outcome& check = *row.check;
      std::string metric = esc(check.metric);
      if (!check.kernel.empty())
        metric += " <span class=\"muted\">[" + esc(check.kernel) + "]</span>";
      lines.push_back(standing_row(row_class(row), metric, esc(row.shown->expected),
                                   render_check_bar_svg(check), esc(row.shown->measured),
                                   row.shown->verdict));
    }
    if (lines.empty())
      continue;
    const std::string case_cell = "<td rowspan=\"" + std::to_string(lines.size()) + "\"><a href=\"#" +
                                  case_anchor(index) + "\"><code>" + esc(result.instance) +
                                  "</code></a></td>";
    lines.front().insert(lines.front().find('>') + 1, case_cell);
    html += "<tbody id=\"standing-" + std::to_string(index) + "\" class=\"" + case_classes[rank] + "\">\n";
    for (const auto& line : lines)
      html += line;
    html += "</tbody>\n";
  }
  return html + "</table>\n</section>\n";
}

}  // namespace counterguard::detail
