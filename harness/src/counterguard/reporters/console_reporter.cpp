// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/console_reporter.hpp"

#include <algorithm>
#include <vector>

#include "counterguard/checker/run_verdict.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/core/text_table.hpp"
#include "counterguard/reporters/display_number.hpp"
#include "counterguard/reporters/shown_checks.hpp"
#include "counterguard/reporters/summary_text.hpp"

namespace counterguard {
namespace {

using row = std::vector<std::string>;

std::string verdict_text(const check_outcome& check, const judged_run& run) {
  std::string text = shown_verdict(check.verdict);
  if (run.fails(check))
    std::transform(text.begin(), text.end(), text.begin(), ::toupper);
  return text;
}

std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// "source lines of transpose/smem?n=2048 (shared_store_bank_conflicts, against the per-line baseline):" and
// one indented line each.
std::string render_blame_lines(const std::string& instance, const case_blame& blame) {
  std::string text = "source lines of " + instance + " (" + comma_list(blame.regressed) +
                     (blame.against_baseline ? ", against the per-line baseline" : "") + "):\n";
  if (!blame.note.empty())
    text += "  " + blame.note + "\n";
  for (const auto& line : blame.lines)
    text += "  " + describe_blamed_line(line) + "   [" + line.function + "]\n";
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
  for (const auto& result : results.cases) {
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
    for (const check_outcome* shown : shown_checks(result)) {
      const check_outcome& check = *shown;
      if (!options.show_passing && check.verdict == check_verdict::pass)
        continue;
      rows.push_back({result.instance, shown_metric(check), round_numbers_in(check.expected),
                      check.measured ? format_display_value(*check.measured) : "-", shown_delta(check),
                      verdict_text(check, run)});
    }
    add_measured_rows(result, rows);
  }

  std::string text = align_columns(rows);
  for (const auto& result : results.cases) {
    if (result.blame)
      text += render_blame_lines(result.instance, *result.blame);
  }
  text += summary_line(run) + "\n";
  return text;
}

}  // namespace counterguard
