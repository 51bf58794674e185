// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/html_reporter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "counterguard/checker/run_verdict.hpp"
#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/reporters/check_bar.hpp"
#include "counterguard/reporters/display_number.hpp"
#include "counterguard/reporters/run_summary.hpp"
#include "counterguard/reporters/shown_checks.hpp"
#include "counterguard/reporters/trend_plot.hpp"

namespace counterguard {
namespace {

// Inline: the page must render with no network (CI artifact viewers, air-gapped machines).
constexpr const char* page_style = R"css(
:root{--bad:#c62828;--good:#2e7d32;--note:#8d6e00;--muted:#666;--line:#ddd}
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#222;background:#f6f7f9}
header,main{max-width:1400px;margin:0 auto;padding:8px 20px}
header{background:#fff;border-bottom:1px solid var(--line)}
h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:18px 0 6px}
.badge{display:inline-block;padding:0 7px;border-radius:4px;color:#fff;font-weight:600;font-size:.85em;background:var(--muted)}
.badge.passed{background:var(--good)}.badge.failed,.badge.error{background:var(--bad)}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:1px 14px;margin:6px 0}
dl.meta dt{color:var(--muted)}dl.meta dd{margin:0}
table{border-collapse:collapse;width:100%;background:#fff;margin:4px 0 10px}
th,td{border:1px solid var(--line);padding:2px 6px;text-align:left;vertical-align:top}
th{background:#eef0f3;font-weight:600}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.counts{width:auto}
tr.bad td.v{color:var(--bad);font-weight:600}tr.note td.v{color:var(--note)}tr.ok td.v{color:var(--good)}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em;overflow-wrap:break-word}
.muted{color:var(--muted)}
details{margin:3px 0}summary{cursor:pointer}
details.suite{background:#fff;border:1px solid var(--line);padding:4px 8px}
details.suite>summary{font-size:16px;font-weight:600}
details.case{margin-left:14px}
nav button,nav label{margin-right:10px}
table.standing td:nth-last-child(5){font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em}
table.standing td:nth-last-child(2){text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.standing td:nth-last-child(3){padding:0 4px;vertical-align:middle}
table.standing tbody{border-top:2px solid #bbb}
table.standing svg{width:120px;height:12px;display:block}
table.standing rect{fill:#1976d2;fill-opacity:.22}table.standing path{stroke:#1976d2;stroke-width:1.5}
table.standing circle{fill:var(--good)}table.standing tr.bad circle{fill:var(--bad)}
table.standing tr.note circle{fill:var(--note)}
tr.bad td:last-child{color:var(--bad);font-weight:600}tr.note td:last-child{color:var(--note)}
tr.ok td:last-child{color:var(--good)}
.trends{display:grid;grid-template-columns:repeat(auto-fill,minmax(430px,1fr));gap:10px}
figure{margin:0;background:#fff;border:1px solid var(--line);padding:6px}
figure.failing{border-color:var(--bad)}
figcaption{font-size:12px}
svg.cg-plot{width:100%;height:auto;display:block}
.cg-plot .ax{stroke:#444;fill:none}.cg-plot .grid{stroke:#eee}
.cg-plot text{font-size:10px;fill:#555}.cg-plot .yl{text-anchor:end;dominant-baseline:middle}
.cg-plot .xl{text-anchor:end;font-family:ui-monospace,monospace}
.cg-plot .band{fill:#1976d2;fill-opacity:.16;stroke:#1976d2;stroke-opacity:.5;stroke-dasharray:3 2}
.cg-plot .line{fill:none;stroke:#333;stroke-width:1.5}
.cg-plot .pt{fill:#333}.cg-plot .pt.bad{fill:var(--bad)}.cg-plot .pt.good{fill:var(--good)}
body.only-failing details.suite:not(.failing),body.only-failing details.case:not(.failing),
body.only-failing tr.ok,body.only-failing figure:not(.failing),body.only-failing tbody.ok{display:none}
)css";

// Expand / collapse all, "only failing"; the last line marks the page as scripted (the browser test reads
// it).
constexpr const char* page_script = R"js(
(function () {
  "use strict";
  var details = document.querySelectorAll("details");
  function setAll(open) {
    for (var i = 0; i < details.length; ++i) details[i].open = open;
  }
  document.getElementById("cg-expand").addEventListener("click", function () { setAll(true); });
  document.getElementById("cg-collapse").addEventListener("click", function () { setAll(false); });
  var only = document.getElementById("cg-only-failing");
  only.addEventListener("change", function () {
    document.body.classList.toggle("only-failing", only.checked);
  });
  document.documentElement.setAttribute("data-cg-ready", String(document.querySelectorAll("svg.cg-plot").length));
})();
)js";

std::string esc(const std::string& text) {
  return html_escape(text);
}

std::string number_cell(const std::optional<double>& value) {
  return "<td class=\"n\">" + (value ? esc(format_display_value(*value)) : std::string("-")) + "</td>";
}

std::string delta_cell(const check_outcome& check) {
  if (!check.measured || !check.baseline)
    return "<td class=\"n\">-</td>";
  const double delta = *check.measured - *check.baseline;
  return "<td class=\"n\">" + std::string(delta > 0 ? "+" : "") + esc(format_display_value(delta)) + "</td>";
}

std::string source_text(const std::optional<source_location>& where) {
  if (!where || where->file.empty())
    return {};
  return where->file + (where->line > 0 ? ":" + std::to_string(where->line) : std::string());
}

std::string metric_text(const check_outcome& check) {
  return check.kernel.empty() ? check.metric : check.metric + " [" + check.kernel + "]";
}

// The baseline kernel key a check reads: "total" for the case as a whole (as metric_history names it).
std::string history_kernel_key(const check_outcome& check) {
  return check.kernel.empty() ? "total" : check.kernel;
}

const char* verdict_label(check_verdict verdict) {
  return verdict == check_verdict::new_metric ? "new" : to_string(verdict);
}

// "bad": fails the case; "ok": passes; "note": reported without failing (new metric, lenient improvement).
const char* row_class(const check_outcome& check, const judged_run& run) {
  if (run.fails(check))
    return "bad";
  return check.verdict == check_verdict::pass ? "ok" : "note";
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
        items.push_back({run.rank(check), i, &check, verdict_label(check.verdict), check.message});
    }
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const attention_item& a, const attention_item& b) { return a.rank < b.rank; });
  return items;
}

std::string case_anchor(std::size_t index) {
  return "case-" + std::to_string(index);
}

std::string render_header(const run_results& results, const run_summary& summary) {
  const run_metadata& m = results.metadata;
  const bool ok = summary.status == exit_code::success;
  std::string html = "<header>\n<h1><span class=\"badge " + std::string(ok ? "passed" : "failed") + "\">" +
                     (ok ? "PASSED" : "FAILED") + "</span> counterguard</h1>\n<dl class=\"meta\">\n";
  auto row = [&html](const char* name, const std::string& value_html) {
    html += "<dt>" + std::string(name) + "</dt><dd>" + value_html + "</dd>\n";
  };
  const device_description& d = m.device;
  std::string gpu = esc(d.name.empty() ? "no GPU" : d.name);
  if (!d.chip.empty()) {
    gpu += " (" + esc(d.chip) + ", " + std::to_string(d.sm_count) + " SMs, sm_" +
           std::to_string(d.compute_capability) + ")";
  }
  row("GPU", gpu);
  row("GPU key", "<code>" + esc(m.gpu_key) + "</code>");
  row("Driver / CUDA / CUPTI",
      esc(d.driver_version) + " / " + esc(d.cuda_runtime_version) + " / " + esc(d.cupti_version));
  row("Commit", "<code title=\"" + esc(m.git_commit) + "\">" + esc(short_commit(m.git_commit)) + "</code>");
  row("Started", esc(m.started_at) + (m.hostname.empty() ? std::string() : " on " + esc(m.hostname)));
  row("Mode", esc(m.mode));
  if (summary.unmeasured)
    row("Counters", "<strong>" + esc(describe_unmeasured(*summary.unmeasured)) + "</strong>");
  row("Command", "<code>" + esc(m.command_line) + "</code>");
  html += "</dl>\n<table class=\"counts\">\n";
  auto n = [](std::size_t value) { return "<td class=\"n\">" + std::to_string(value) + "</td>"; };
  html +=
      "<tr><th>cases</th><th>passed</th><th>failed</th><th>skipped</th><th>errors</th>"
      "<th>wrong output</th><th>seconds</th><th>exit status</th></tr>\n";
  html += "<tr>" + n(summary.cases) + n(summary.passed) + n(summary.failed) + n(summary.skipped) +
          n(summary.errors) + n(summary.wrong_output) + "<td class=\"n\">" +
          fmt::format("{:.2f}", std::isfinite(summary.seconds) ? summary.seconds : 0.0) +
          "</td><td class=\"n\">" + std::to_string(static_cast<int>(summary.status)) + "</td></tr>\n";
  html +=
      "<tr><th>checks</th><th>pass</th><th>fail</th><th>regression</th><th>improvement</th><th>new</th>"
      "<th>missing</th><th>failing</th></tr>\n";
  html += "<tr>" + n(summary.checks) + n(summary.check_pass) + n(summary.check_fail) +
          n(summary.check_regression) + n(summary.check_improvement) + n(summary.check_new) +
          n(summary.check_missing) + n(summary.failing_checks) + "</tr>\n</table>\n";
  html +=
      "<nav><a href=\"#standing\">Where each case stands</a> &middot; <a href=\"#attention\">Needs "
      "attention</a> &middot; <a href=\"#suites\">Suites</a> &middot; "
      "<a href=\"#trends\">Trends</a> &nbsp; <button type=\"button\" id=\"cg-expand\">expand all</button>"
      "<button type=\"button\" id=\"cg-collapse\">collapse all</button><label><input type=\"checkbox\" "
      "id=\"cg-only-failing\"> only failing</label></nav>\n</header>\n";
  return html;
}

std::string render_attention(const judged_run& run, const run_summary& summary) {
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
        html += "<td><code>" + esc(metric_text(check)) + "</code></td><td>" +
                esc(round_numbers_in(check.expected)) + "</td>" + number_cell(check.measured) +
                number_cell(check.baseline) + delta_cell(check) + "<td><code>" +
                esc(source_text(check.source ? check.source : result.source)) + "</code></td>";
      } else {
        html += "<td></td><td></td><td></td><td></td><td></td><td><code>" + esc(source_text(result.source)) +
                "</code></td>";
      }
      html += "<td>" + esc(item.detail) + "</td></tr>\n";
    }
    html += "</table>\n";
  }
  if (summary.check_new != 0) {
    html +=
        "<p class=\"muted\">" + std::to_string(summary.check_new) +
        " metric(s) have no baseline yet (listed per case below); <code>counterguard baseline update</code> "
        "records them.</p>\n";
  }
  return html + "</section>\n";
}

// Where a row stands: 0 fails the case, 1 changed without failing (improvement, new, missing), 2 passes.
int standing_rank(const check_outcome& check, const judged_run& run) {
  if (run.fails(check))
    return 0;
  return check.verdict == check_verdict::pass ? 2 : 1;
}

// Where a case stands: 0 failed or error, 1 something changed, 2 passed, 3 skipped.
int standing_rank(case_status status, const std::vector<const check_outcome*>& checks,
                  const judged_run& run) {
  switch (status) {
    case case_status::failed:
    case case_status::error:
      return 0;
    case case_status::skipped:
      return 3;
    case case_status::passed:
      break;
  }
  for (const auto* check : checks) {
    if (standing_rank(*check, run) < 2)
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

// The first picture: every case against its expectations and baseline bands, one row per check
// (shown_checks), each with its measured value placed on a bar of the accepted values. Cases that fail come
// first, then those where something changed, then those that pass, then the skipped ones; within a case,
// failing checks first.
std::string render_standing(const judged_run& run) {
  const run_results& results = run.results;
  struct ranked_case {
    int rank = 0;
    std::size_t index = 0;
    std::vector<const check_outcome*> checks;
  };
  std::vector<ranked_case> cases;
  std::size_t rows = 0;
  for (std::size_t i = 0; i < results.cases.size(); ++i) {
    std::vector<const check_outcome*> checks = shown_checks(results.cases[i]);
    std::stable_sort(checks.begin(), checks.end(), [&run](const check_outcome* a, const check_outcome* b) {
      return standing_rank(*a, run) < standing_rank(*b, run);
    });
    rows += checks.size();
    cases.push_back({standing_rank(run.statuses[i], checks, run), i, std::move(checks)});
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
    for (const auto* check : checks) {
      std::string metric = esc(check->metric);
      if (!check->kernel.empty())
        metric += " <span class=\"muted\">[" + esc(check->kernel) + "]</span>";
      lines.push_back(standing_row(row_class(*check, run), metric, esc(round_numbers_in(check->expected)),
                                   render_check_bar_svg(*check),
                                   check->measured ? esc(format_display_value(*check->measured)) : "-",
                                   verdict_label(check->verdict)));
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

// The source lines a failed case's regressed counters come from (run's blame, docs/blame.md).
std::string render_blame(const case_blame& blame) {
  std::string html = "<p><strong>source lines</strong> of " + esc(comma_list(blame.regressed)) +
                     (blame.against_baseline ? " (against the per-line baseline)" : "") + "</p>\n";
  if (!blame.note.empty())
    html += "<p class=\"muted\">" + esc(blame.note) + "</p>\n";
  if (blame.lines.empty())
    return html;
  html +=
      "<table class=\"blame\"><tr><th>line</th><th>instruction</th><th>counter</th><th>before</th>"
      "<th>now</th><th>function</th></tr>\n";
  for (const auto& line : blame.lines) {
    const std::string kinds = describe_kind_change(line);
    html += "<tr><td><code>" + esc(describe_blamed_place(line)) + "</code></td><td><code>" + esc(line.sass) +
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
  for (const auto& check : result.checks)
    failing_checks += run.fails(check) ? 1 : 0;
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
    html += render_blame(*result.blame);
  return html + "</details>\n";
}

// instance -> (plot number, metric label) of the trend plots about it.
using plot_index = std::map<std::string, std::vector<std::pair<std::size_t, std::string>>>;

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

bool failing_point(const history_point& point) {
  return point.verdict == "fail" || point.verdict == "regression" || point.verdict == "missing";
}

// A series to plot: its index in the history and how urgent it is (0: failing now, 1: failed before, 2:
// fine).
struct ranked_series {
  int rank = 2;
  std::size_t index = 0;
};

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

// The series worth a plot: at least two recorded runs; one per case and metric (a per-kernel series only
// for a case of this run that launched more than one kernel, else it repeats the case total); not
// unchanged. `unchanged_count` counts those left out for being unchanged.
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

// The plotted series in display order: failing in this run or at their latest point first, then those
// that failed before, then the rest (each group in the order given).
std::vector<ranked_series> trend_order(const judged_run& run, const std::vector<metric_history>& history,
                                       const std::vector<std::size_t>& plotted) {
  const run_results& results = run.results;
  std::set<std::tuple<std::string, std::string, std::string>> failing_now;
  for (const auto& result : results.cases) {
    for (const auto& check : result.checks) {
      if (run.fails(check))
        failing_now.emplace(result.instance, history_kernel_key(check), check.metric);
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

// The plots, collapsed in one <details> (open when one of them fails).
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

}  // namespace

std::string render_html_report(const judged_run& run, const std::vector<metric_history>& history) {
  const run_results& results = run.results;
  const run_summary summary = summarize(run);
  std::size_t unchanged_count = 0;
  const std::vector<std::size_t> plotted = plotted_series(results, history, unchanged_count);
  const std::vector<ranked_series> order = trend_order(run, history, plotted);
  plot_index plots;
  for (const auto& series : order)
    plots[history[series.index].instance].emplace_back(series.index, series_label(history[series.index]));

  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>counterguard: ";
  html += esc(verdict_heading(summary)) + " &middot; " + esc(results.metadata.gpu_key) + " &middot; " +
          esc(short_commit(results.metadata.git_commit)) + "</title>\n<style>" + page_style +
          "</style>\n</head>\n<body>\n";
  html += render_header(results, summary);
  html += "<main>\n";
  html += render_standing(run);
  html += render_attention(run, summary);
  html += render_suites(run, plots);
  html += render_trends(history, order, unchanged_count);
  html += "</main>\n<script>" + std::string(page_script) + "</script>\n</body>\n</html>\n";
  return html;
}

void write_html_report(const std::string& path, const judged_run& run,
                       const std::vector<metric_history>& history) {
  write_file_atomically(path, render_html_report(run, history));
}

}  // namespace counterguard
