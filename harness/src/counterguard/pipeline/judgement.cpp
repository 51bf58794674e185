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
#include "counterguard/history/history_source.hpp"
#include "counterguard/history/history_store.hpp"
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
    if (!reports.files.html.empty())
      history = history_store(reports.history).all_series(results.metadata.gpu_key, html_history_runs);
  }
  const judged_run judged = judge_run(results, reports.strict);
  write_reports(judged, {!reports.quiet}, reports.files, history);
  return static_cast<int>(judged.status);
}

}  // namespace counterguard
