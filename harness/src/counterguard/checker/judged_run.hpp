// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counterguard/checker/run_summary.hpp"
#include "counterguard/checker/run_verdict.hpp"
#include "counterguard/checker/shown_checks.hpp"
#include "counterguard/core/exit_code.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// A finished run's results with what the checker decided about them, decided once (judge_run): the one thing
// every report is handed, so no report judges a case or a check by itself.
struct judged_run {
  run_results results;
  bool strict = false;                            // improvements beyond tolerance fail too (--strict)
  std::vector<case_status> statuses;              // decided_status of each of results.cases, in their order
  exit_code status = exit_code::success;          // decide_exit_code
  std::optional<unmeasured_counters> unmeasured;  // counters_not_checked: the run profiled nothing
  std::string static_checks_only;  // describe_unmeasured of unmeasured; empty when it is absent
  run_summary summary;             // summarize: the counts every report prints
  std::vector<shown_case> shown;   // show_case of each of results.cases, in their order: what reports show

  // Whether `check` fails its case under this run's rule (is_failing).
  [[nodiscard]] bool fails(const check_outcome& check) const { return is_failing(check, strict); }
  // attention_rank under this run's rule.
  [[nodiscard]] int rank(const check_outcome& check) const { return attention_rank(check, strict); }
};

// Decides `results` as `run` reports them: statuses as they stand (settled or not: results read from a
// file are judged the same), under `strict`.
[[nodiscard]] judged_run judge_run(run_results results, bool strict);

}  // namespace counterguard
