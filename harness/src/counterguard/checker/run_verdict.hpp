// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "counterguard/core/exit_code.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Whether a check fails the case. An improvement fails only when `strict` (baselines must be refreshed).
[[nodiscard]] bool is_failing(const check_outcome& check, bool strict);

// Where a check stands in the order reports list what needs attention, most urgent first (0 and 1 are a
// case's error and wrong output): 2 a failed expectation, 3 a regression, 4 a missing metric or an
// improvement that fails (--strict), 5 an improvement and 6 a missing metric that do not, 7 a new metric,
// 8 a pass.
[[nodiscard]] int attention_rank(const check_outcome& check, bool strict);

// Sets a case's status from its checks and verification: skipped and error stay as they are; a wrong
// output (verified == false) or any failing check makes it failed (with a reason); otherwise passed.
void settle_case_status(case_result& result, bool strict);

// How a finished case stands, as every report shows it and the exit status counts it: its own status, unless
// a wrong output (verified == false) or a failing check says it failed. Unlike settle_case_status it never
// turns a failed case into a passed one (a case the runner failed, a timeout, has no failing check).
[[nodiscard]] case_status decided_status(const case_result& result, bool strict);

// A run that profiled nothing (`static`, or `run` without a GPU): how many counter checks its cases left
// unchecked, and why. A green verdict from such a run says nothing about the counters.
struct unmeasured_counters {
  std::size_t checks = 0;
  std::string reason;  // "no GPU", "`static` profiles nothing"
};

// Absent when the run profiled its cases, or when none of its cases expected a counter.
[[nodiscard]] std::optional<unmeasured_counters> counters_not_checked(const run_results& results);

// "static checks only: 24 counter checks not run: no GPU", as every report words it.
[[nodiscard]] std::string describe_unmeasured(const unmeasured_counters& unmeasured);

// The process exit status for a finished run (docs/cli.md, "Exit status"):
//   success (0)       every case passed or was skipped;
//   check_failed (1)  any failing check, wrong kernel output, failed case or case error.
// Counter checks not run (counters_not_checked) do not change it: `run --require-gpu` makes a missing GPU an
// environment error (3) before results exist.
// Errors that stop the run before results exist (invalid input 2, environment 3, internal 4) are thrown
// as counterguard::error and mapped by the command line.
[[nodiscard]] exit_code decide_exit_code(const run_results& results, bool strict);

}  // namespace counterguard
