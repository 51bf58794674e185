// Judging a run (expectations, baselines, case statuses, exit status), recording it into the history and
// reporting it.
#include "counterguard/pipeline/judgement.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <set>

#include "counterguard/baselines/baseline_comparison.hpp"
#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/checker/expectation_checker.hpp"
#include "counterguard/checker/run_verdict.hpp"
#include "counterguard/history/history_source.hpp"
#include "counterguard/history/history_store.hpp"
#include "counterguard/reporters/console_reporter.hpp"
#include "counterguard/reporters/html_reporter.hpp"
#include "counterguard/reporters/json_reporter.hpp"
#include "counterguard/reporters/junit_reporter.hpp"
#include "counterguard/reporters/markdown_reporter.hpp"

namespace counterguard {
namespace {

// How many recorded runs the HTML report's trend plots show.
constexpr std::size_t html_history_runs = 30;

// The baseline files of the suites in the run, for the run's GPU key (absent files: every metric is new).
void compare_with_baselines(run_results& results, const report_options& reports) {
  std::set<std::string> suites;
  for (const auto& c : results.cases)
    suites.insert(c.suite);
  std::map<std::string, baseline_file> files;
  std::map<std::string, std::string> paths;
  for (const auto& suite : suites) {
    const std::string path = baseline_path(reports.baseline_dir, results.metadata.gpu_key, suite);
    if (auto file = load_baseline_file(path)) {
      files.emplace(suite, std::move(*file));
      paths.emplace(suite, path);
    }
  }
  baseline_comparison_options options;
  options.strict = reports.strict;
  options.false_alarm_rate = reports.false_alarm_rate;
  apply_baselines(results, files, paths, options);
}

}  // namespace

void write_reports(const run_results& results, const report_options& reports,
                   const std::vector<metric_history>& history) {
  console_report_options console;
  console.strict = reports.strict;
  console.show_passing = !reports.quiet;
  std::fputs(render_console_report(results, console).c_str(), stdout);
  if (!reports.json.empty())
    write_json_report(reports.json, results, reports.strict);
  if (!reports.junit.empty())
    write_junit_report(reports.junit, results, reports.strict);
  if (!reports.markdown.empty()) {
    // What did not fit in the summary is in the fullest report this run writes.
    const std::string full_report = !reports.html.empty()   ? reports.html
                                    : !reports.json.empty() ? reports.json
                                                            : reports.junit;
    write_markdown_report(reports.markdown, results, reports.strict, {reports.markdown_limit, full_report});
  }
  if (!reports.html.empty())
    write_html_report(reports.html, results, history, reports.strict);
}

void check_all_expectations(run_results& results, const std::vector<case_instance>& instances) {
  for (std::size_t i = 0; i < results.cases.size() && i < instances.size(); ++i) {
    case_result& result = results.cases[i];
    if (result.status == case_status::skipped || result.status == case_status::error)
      continue;
    const auto checks = check_expectations(instances[i], result);
    result.checks.insert(result.checks.end(), checks.begin(), checks.end());
  }
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
  if (!reports.no_baselines)
    compare_with_baselines(results, reports);
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
  write_reports(results, reports, history);
  return static_cast<int>(decide_exit_code(results, reports.strict));
}

}  // namespace counterguard
