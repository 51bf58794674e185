// SPDX-License-Identifier: Apache-2.0
// Judging a run (expectations, baselines, case statuses, exit status), recording it into the history and
// reporting it.
#include "counterguard/pipeline/judgement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>

#include "counterguard/baselines/baseline_comparison.hpp"
#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/baselines/gpu_key.hpp"
#include "counterguard/checker/expectation_checker.hpp"
#include "counterguard/checker/run_verdict.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/history/history_source.hpp"
#include "counterguard/history/history_store.hpp"
#include "counterguard/reporters/console_reporter.hpp"
#include "counterguard/reporters/dashboard_exporters.hpp"
#include "counterguard/reporters/finding_reports.hpp"
#include "counterguard/reporters/report_files.hpp"
#include "counterguard/reporters/report_output.hpp"
#include "counterguard/runner/isolated_runner.hpp"

namespace counterguard {
namespace {

// How many recorded runs the HTML report's trend plots show.
constexpr std::size_t html_history_runs = 30;

baseline_comparison_options baseline_options_of(const report_options& reports) {
  baseline_comparison_options options;
  options.strict = reports.strict;
  options.false_alarm_rate = reports.false_alarm_rate;
  return options;
}

}  // namespace

case_failure_detector::case_failure_detector(const std::vector<case_instance>& instances,
                                             const report_options& reports)
    : m_instances(instances), m_reports(reports) {}

bool case_failure_detector::fails(std::size_t index, const case_result& result,
                                  const device_description& device) {
  if (result.status == case_status::error || result.verified == false)
    return true;
  if (result.status == case_status::skipped || index >= m_instances.size())
    return false;
  run_results one;
  one.metadata.gpu_key = make_gpu_key(device);
  one.cases.push_back(result);
  case_result& judged = one.cases.front();
  add_expectation_checks(m_instances[index], judged);
  if (!m_reports.no_baselines) {
    const baseline_comparison_options options = baseline_options_of(m_reports);
    const std::string path = baseline_path(m_reports.baseline_dir, one.metadata.gpu_key, judged.suite);
    auto [found, inserted] = m_baselines.try_emplace(judged.suite);
    if (inserted)
      found->second = load_baseline_file(path);
    if (found->second)
      apply_baselines(one, {{judged.suite, *found->second}}, {{judged.suite, path}}, options);
  }
  settle_case_status(judged, m_reports.strict);
  return judged.status == case_status::failed || judged.status == case_status::error;
}

void skip_after_first_failure(run_results& results) {
  const auto first = std::find_if(results.cases.begin(), results.cases.end(), [](const case_result& c) {
    return c.status == case_status::failed || c.status == case_status::error;
  });
  if (first == results.cases.end())
    return;
  const std::string failed = first->instance;
  for (auto it = std::next(first); it != results.cases.end(); ++it) {
    case_result skipped;
    skipped.instance = it->instance;
    skipped.suite = it->suite;
    skipped.case_name = it->case_name;
    skipped.kernel = it->kernel;
    skipped.parameters = it->parameters;
    skipped.source = it->source;
    skipped.status = case_status::skipped;
    skipped.status_reason = not_run_reason(failed);
    *it = std::move(skipped);
  }
}

void check_report_destinations(const report_options& reports) {
  std::vector<std::string> on_standard_output;
  for (const auto& [option, path] : {std::pair<const char*, const std::string&>{"--json", reports.json},
                                     {"--junit", reports.junit},
                                     {"--markdown", reports.markdown},
                                     {"--html", reports.html},
                                     {"--csv", reports.csv}}) {
    if (is_standard_output(path))
      on_standard_output.emplace_back(option);
  }
  for (const auto& [format, path] : reports.exports) {
    if (!parse_dashboard_format(format)) {
      std::string names;
      for (const auto& name : dashboard_format_names())
        names += (names.empty() ? "" : ", ") + name;
      throw input_error({}, "--export", "unknown export format '" + format + "'",
                        "--export FORMAT FILE with FORMAT one of " + names);
    }
    if (is_standard_output(path))
      on_standard_output.push_back("--export " + format);
  }
  for (const auto& [format, path] : reports.annotations) {
    if (!parse_finding_format(format)) {
      std::string names;
      for (const auto& name : finding_format_names())
        names += (names.empty() ? "" : ", ") + name;
      throw input_error({}, "--annotations", "unknown annotation format '" + format + "'",
                        "--annotations FORMAT FILE with FORMAT one of " + names);
    }
    if (is_standard_output(path))
      on_standard_output.push_back("--annotations " + format);
  }
  if (on_standard_output.size() > 1) {
    std::string options;
    for (const auto& option : on_standard_output)
      options += (options.empty() ? "" : ", ") + option;
    throw input_error({}, on_standard_output[1],
                      "more than one report goes to standard output (" + options + ")",
                      "give '-' to one of them and a file to the others");
  }
}

void write_reports(const judged_run& run, const report_options& reports,
                   const std::vector<metric_history>& history) {
  const run_results& results = run.results;
  console_report_options console;
  console.show_passing = !reports.quiet;
  // Standard output holds the report asked for there and nothing else, so it can be piped.
  const bool report_on_standard_output =
      is_standard_output(reports.json) || is_standard_output(reports.junit) ||
      is_standard_output(reports.markdown) || is_standard_output(reports.html) ||
      is_standard_output(reports.csv) ||
      std::any_of(reports.exports.begin(), reports.exports.end(),
                  [](const auto& e) { return is_standard_output(e.second); }) ||
      std::any_of(reports.annotations.begin(), reports.annotations.end(),
                  [](const auto& e) { return is_standard_output(e.second); });
  std::fputs(render_console_report(run, console).c_str(), report_on_standard_output ? stderr : stdout);
  report_files files;
  files.json = reports.json;
  files.junit = reports.junit;
  files.markdown = reports.markdown;
  files.markdown_limit = reports.markdown_limit;
  files.html = reports.html;
  files.csv = reports.csv;
  files.annotations = reports.annotations;
  files.annotation_limit = reports.annotation_limit;
  files.source_root = reports.source_root;
  files.source_link = reports.source_link;
  write_report_files(run, files, history);
  for (const auto& [name, path] : reports.exports) {
    const dashboard_format format = *parse_dashboard_format(name);
    write_report_text(path, render_dashboard_export(format, results));
    if (format != dashboard_format::github_action_benchmark &&
        format != dashboard_format::github_action_benchmark_bigger)
      continue;
    // One file holds one direction: say what the other direction's file would hold, unless it is written too.
    const bool bigger = format == dashboard_format::github_action_benchmark_bigger;
    const char* other = dashboard_format_name(bigger ? dashboard_format::github_action_benchmark
                                                     : dashboard_format::github_action_benchmark_bigger);
    const std::size_t left_out = github_action_benchmark_values(results, !bigger);
    const bool other_written = std::any_of(reports.exports.begin(), reports.exports.end(),
                                           [&](const auto& e) { return e.first == other; });
    if (left_out > 0 && !other_written) {
      std::fputs(
          fmt::format("counterguard: {} ({}) leaves out {} values of metrics whose {} values are better: "
                      "`--export {} FILE` writes them\n",
                      path, bigger ? "customBiggerIsBetter" : "customSmallerIsBetter", left_out,
                      bigger ? "smaller" : "bigger", other)
              .c_str(),
          stderr);
    }
  }
}

void check_all_expectations(run_results& results, const std::vector<case_instance>& instances) {
  for (std::size_t i = 0; i < results.cases.size() && i < instances.size(); ++i)
    add_expectation_checks(instances[i], results.cases[i]);
}

void record_into_history(const std::string& database, const run_results& results, const std::string& origin,
                         const std::string& distinguisher) {
  history_store store(database);
  const record_outcome outcome =
      store.record(results, {origin, results_content_hash(results, distinguisher)});
  std::fputs(
      fmt::format("counterguard: {} run {} in the history {}\n",
                  outcome.already_recorded ? "already recorded as" : "recorded as", outcome.run_id, database)
          .c_str(),
      stderr);
}

int judge_and_report(run_results& results, const report_options& reports,
                     const std::function<void(run_results&)>& before_reports) {
  if (!reports.no_baselines) {
    const baseline_comparison_options options = baseline_options_of(reports);
    apply_baseline_directory(results, reports.baseline_dir, options);
  }
  for (auto& c : results.cases)
    settle_case_status(c, reports.strict);
  if (before_reports)
    before_reports(results);
  std::vector<metric_history> history;
  if (!reports.history.empty()) {
    // Recorded first, so the HTML report's trends end with this run.
    record_into_history(reports.history, results, "counterguard " + results.metadata.mode);
    if (!reports.html.empty())
      history = history_store(reports.history).all_series(results.metadata.gpu_key, html_history_runs);
  }
  const judged_run judged = judge_run(results, reports.strict);
  write_reports(judged, reports, history);
  return static_cast<int>(judged.status);
}

}  // namespace counterguard
