// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/baselines/noise_model.hpp"
#include "counterguard/checker/judged_run.hpp"
#include "counterguard/model/case_instance.hpp"
#include "counterguard/reporters/report_files.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Where results go besides the console (a path "-" is standard output; then the console report goes to
// standard error), and how they are judged.
struct report_options {
  report_files files;
  std::string baseline_dir = "baselines";
  bool no_baselines = false;
  double false_alarm_rate = default_false_alarm_rate;  // per noisy baseline check
  bool strict = false;
  bool quiet = false;
  bool fail_fast = false;  // stop at the first failing case; the rest are reported as skipped
  std::string history;     // record the results into this history database (docs/history.md)
};

// Checks measured results against each instance's expectations (all of them: a GPU run or its evaluation);
// results[i] belongs to instances[i]. Skipped and errored cases are left alone.
void check_all_expectations(run_results& results, const std::vector<case_instance>& instances);

// --fail-fast: whether one case fails as judge_and_report will judge it (its expectations, its baselines
// unless disabled, its verification and status), while the others are still running. Each suite's baseline
// file is read once, for the GPU key of the device the first of its cases ran on.
class case_failure_detector {
 public:
  case_failure_detector(const std::vector<case_instance>& instances, const report_options& reports);
  // `result` belongs to instances[index] and ran on `device`.
  [[nodiscard]] bool fails(std::size_t index, const case_result& result, const device_description& device);

 private:
  const std::vector<case_instance>& m_instances;
  const report_options& m_reports;
  std::map<std::string, std::optional<baseline_file>> m_baselines;  // by suite
};

// --fail-fast after the fact (a recording evaluated): the cases after the first failed or errored one, in
// `results` order, are reported as skipped, not run (runner/isolated_runner.hpp, not_run_reason).
void skip_after_first_failure(run_results& results);

// Compares with baselines (unless disabled), settles case statuses, records the history (--history), prints
// and writes the reports; returns the exit status. `before_reports` runs once the statuses are settled,
// before anything is recorded or printed (run's source-line blame).
int judge_and_report(run_results& results, const report_options& reports,
                     const std::function<void(run_results&)>& before_reports = {});

// Records `results` into the history database at `database` (created when missing) and says so on stderr.
// `distinguisher` separates runs whose results are identical by design (baseline update repetitions).
void record_into_history(const std::string& database, const run_results& results, const std::string& origin,
                         const std::string& distinguisher = {});

}  // namespace counterguard
