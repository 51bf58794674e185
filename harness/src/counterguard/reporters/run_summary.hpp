// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "counterguard/checker/judged_run.hpp"
#include "counterguard/core/exit_code.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Counts every reporter prints, counted from the checker's decisions (judged_run).
struct run_summary {
  std::size_t cases = 0;
  std::size_t passed = 0;
  std::size_t failed = 0;  // failing checks, wrong output or status failed
  std::size_t skipped = 0;
  std::size_t errors = 0;
  std::size_t wrong_output = 0;  // verified == false (also counted in failed)
  std::size_t unverified = 0;    // ran without a verification: counters measured, output unchecked
  std::size_t checks = 0;
  std::size_t check_pass = 0;
  std::size_t check_fail = 0;
  std::size_t check_regression = 0;
  std::size_t check_improvement = 0;
  std::size_t check_new = 0;
  std::size_t check_missing = 0;
  std::size_t failing_checks = 0;  // judged_run::fails
  double seconds = 0.0;
  exit_code status = exit_code::success;
  std::optional<unmeasured_counters> unmeasured;  // the run profiled nothing (checker/run_verdict.hpp)
};

[[nodiscard]] run_summary summarize(const judged_run& run);

// "12 cases: 10 passed, 1 failed, 1 skipped, 0 errors; checks: 40 pass, 1 fail, 1 regression,
//  0 improvement, 2 new, 0 missing"; a run that profiled nothing adds
//  "; static checks only: 24 counter checks not run: no GPU".
[[nodiscard]] std::string summary_line(const run_summary& summary);

// The run's verdict in a word or two, as report headings show it: "passed", "FAILED", or
// "passed (static checks only)" when the run profiled nothing.
[[nodiscard]] std::string verdict_heading(const run_summary& summary);

}  // namespace counterguard
