#pragma once

#include <functional>
#include <string>
#include <vector>

#include "counterguard/baselines/noise_model.hpp"
#include "counterguard/core/markdown_budget.hpp"
#include "counterguard/history/metric_history.hpp"
#include "counterguard/model/case_instance.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Where results go besides the console, and how they are judged.
struct report_options {
  std::string json;
  std::string junit;
  std::string markdown;
  std::size_t markdown_limit = default_markdown_limit;  // characters; 0: no limit
  std::string html;
  std::string baseline_dir = "baselines";
  bool no_baselines = false;
  double false_alarm_rate = default_false_alarm_rate;  // per noisy baseline check
  bool strict = false;
  bool quiet = false;
  std::string history;  // record the results into this history database (docs/history.md)
};

// Checks measured results against each instance's expectations (all of them: a GPU run or its evaluation);
// results[i] belongs to instances[i]. Skipped and errored cases are left alone.
void check_all_expectations(run_results& results, const std::vector<case_instance>& instances);

// Compares with baselines (unless disabled), settles case statuses, records the history (--history), prints
// and writes the reports; returns the exit status. `before_reports` runs once the statuses are settled,
// before anything is recorded or printed (run's source-line blame).
int judge_and_report(run_results& results, const report_options& reports,
                     const std::function<void(run_results&)>& before_reports = {});

// Prints the console report and writes the requested JSON, JUnit, Markdown and HTML files; the HTML report
// plots `history` (the recorded series of the run's GPU key, when a history database is given).
void write_reports(const run_results& results, const report_options& reports,
                   const std::vector<metric_history>& history = {});

// Records `results` into the history database at `database` (created when missing) and says so on stderr.
// `distinguisher` separates runs whose results are identical by design (baseline update repetitions).
void record_into_history(const std::string& database, const run_results& results, const std::string& origin,
                         const std::string& distinguisher = {});

}  // namespace counterguard
