// SPDX-License-Identifier: Apache-2.0
// The HTML report's page: its <head>, inline styles and script, the header with the run's facts and counts,
// and the sections (detail/html_sections.hpp) in their order.
#include "counterguard/reporters/html_reporter.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/reporters/summary_text.hpp"
#include "counterguard/reporters/trend_plot.hpp"
#include "detail/html_sections.hpp"

namespace counterguard::detail {
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

std::string render_header(const judged_run& run) {
  const run_metadata& m = run.results.metadata;
  const run_summary& summary = run.summary;
  const bool ok = run.status == exit_code::success;
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
  if (run.unmeasured)
    row("Counters", "<strong>" + esc(run.static_checks_only) + "</strong>");
  row("Command", "<code>" + esc(m.command_line) + "</code>");
  html += "</dl>\n<table class=\"counts\">\n";
  auto n = [](std::size_t value) { return "<td class=\"n\">" + std::to_string(value) + "</td>"; };
  html +=
      "<tr><th>cases</th><th>passed</th><th>failed</th><th>skipped</th><th>errors</th>"
      "<th>wrong output</th><th>seconds</th><th>exit status</th></tr>\n";
  html += "<tr>" + n(summary.cases) + n(summary.passed) + n(summary.failed) + n(summary.skipped) +
          n(summary.errors) + n(summary.wrong_output) + "<td class=\"n\">" +
          fmt::format("{:.2f}", std::isfinite(summary.seconds) ? summary.seconds : 0.0) +
          "</td><td class=\"n\">" + std::to_string(static_cast<int>(run.status)) + "</td></tr>\n";
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

}  // namespace
}  // namespace counterguard::detail

namespace counterguard {

std::string render_html_report(const judged_run& run, const std::vector<metric_history>& history) {
  const run_results& results = run.results;
  std::size_t unchanged_count = 0;
  const std::vector<std::size_t> plotted = detail::plotted_series(results, history, unchanged_count);
  const std::vector<detail::ranked_series> order = detail::trend_order(run, history, plotted);
  detail::plot_index plots;
  for (const auto& series : order)
    plots[history[series.index].instance].emplace_back(series.index,
                                                       detail::series_label(history[series.index]));

  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>counterguard: ";
  html += detail::esc(verdict_heading(run)) + " &middot; " + detail::esc(results.metadata.gpu_key) +
          " &middot; " + detail::esc(short_commit(results.metadata.git_commit)) + "</title>\n<style>" +
          detail::page_style + "</style>\n</head>\n<body>\n";
  html += detail::render_header(run);
  html += "<main>\n";
  html += detail::render_standing(run);
  html += detail::render_attention(run);
  html += detail::render_suites(run, plots);
  html += detail::render_trends(history, order, unchanged_count);
  html += "</main>\n<script>" + std::string(detail::page_script) + "</script>\n</body>\n</html>\n";
  return html;
}

void write_html_report(const std::string& path, const judged_run& run,
                       const std::vector<metric_history>& history) {
  write_file_atomically(path, render_html_report(run, history));
}

}  // namespace counterguard
