// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/console_reporter.hpp"

#include <algorithm>
#include <vector>

#include "counterguard/core/display_number.hpp"
#include "counterguard/core/text_table.hpp"
#include "counterguard/reporters/summary_text.hpp"

namespace counterguard {
namespace {

using row = std::vector<std::string>;

std::string verdict_text(const shown_check& check) {
  std::string text = check.verdict;
  if (check.failing)
    std::transform(text.begin(), text.end(), text.begin(), ::toupper);
  return text;
}

std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// "source lines of transpose/smem?n=2048 (shared_store_bank_conflicts, against the per-line baseline):" and
// one indented line each.
std::string render_blame_lines(const std::string& instance, const case_blame& blame,
                               const shown_case& shown) {
  std::string text = "source lines of " + instance + " (" + shown.regressed +
                     (blame.against_baseline ? ", against the per-line baseline" : "") + "):\n";
  if (!blame.note.empty())
    text += "  " + blame.note + "\n";
  for (std::size_t i = 0; i < blame.lines.size(); ++i)
    text += "  " + shown.blame_lines[i].described + "   [" + blame.lines[i].function + "]\n";
  return text;
}

// A case measured without checks (exec's command-line selection, as ncu prints its metrics): every value,
// per launch when there are several.
void add_measured_rows(const case_result& result, std::vector<row>& rows) {
  if (!result.checks.empty() || result.totals.empty())
    return;
  if (result.kernels.size() > 1) {
    for (const auto& kernel : result.kernels) {
      for (const auto& [metric, value] : kernel.metrics) {
        rows.push_back({result.instance,
                        metric + " [" + kernel.function + " #" + std::to_string(kernel.launch_index) + "]",
                        "-", format_display_value(value), "-", "measured"});
      }
    }
  }
  for (const auto& [metric, value] : result.totals)
    rows.push_back({result.instance, metric, "-", format_display_value(value.value), "-", "measured"});
}

}  // namespace

std::string render_console_report(const judged_run& run, const console_report_options& options) {
  const run_results& results = run.results;
  std::vector<row> rows;
  rows.push_back({"CASE", "METRIC", "EXPECTED", "MEASURED", "DELTA", "VERDICT"});
  for (std::size_t position = 0; position < results.cases.size(); ++position) {
    const case_result& result = results.cases[position];
    if (result.status == case_status::skipped) {
      rows.push_back({result.instance, "-", "-", "-", "-", "skipped: " + one_line(result.status_reason)});
    } else if (result.status == case_status::error) {
      rows.push_back({result.instance, "-", "-", "-", "-", "ERROR: " + one_line(result.status_reason)});
    }
    if (result.verified && !*result.verified) {
      rows.push_back({result.instance, "(output)", "-", "-", "-",
                      "WRONG OUTPUT: " + one_line(result.verification_message)});
    }
    if (result.unverified)
      rows.push_back({result.instance, "(output)", "-", "-", "-", "unverified: no verify registered"});
    const std::vector<shown_check>& checks = run.shown[position].checks;
    for (std::size_t i = 0; i < checks.size(); ++i) {
      const shown_check& check = checks[i];
      if (!check.listed || (!options.show_passing && result.checks[i].verdict == check_verdict::pass))
        continue;
      rows.push_back(
          {result.instance, check.metric, check.expected, check.measured, check.delta, verdict_text(check)});
    }
    add_measured_rows(result, rows);
  }

  std::string text = align_columns(rows);
  for (std::size_t position = 0; position < results.cases.size(); ++position) {
    const case_result& result = results.cases[position];
    if (result.blame)
      text += render_blame_lines(result.instance, *result.blame, run.shown[position]);
  }
  text += summary_line(run) + "\n";
  return text;
}

}  // namespace counterguard
