// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/summary_text.hpp"

namespace counterguard {

std::string summary_line(const judged_run& run) {
  const run_summary& s = run.summary;
  auto n = [](std::size_t value) { return std::to_string(value); };
  std::string line = n(s.cases) + " cases: " + n(s.passed) + " passed, " + n(s.failed) + " failed, " +
                     n(s.skipped) + " skipped, " + n(s.errors) + " errors";
  if (s.wrong_output != 0 || s.unverified != 0) {
    line += " (";
    if (s.wrong_output != 0)
      line += n(s.wrong_output) + " wrong output" + (s.unverified != 0 ? ", " : "");
    if (s.unverified != 0)
      line += n(s.unverified) + " unverified";
    line += ")";
  }
  line += "; checks: " + n(s.check_pass) + " pass, " + n(s.check_fail) + " fail, " + n(s.check_regression) +
          " regression, " + n(s.check_improvement) + " improvement, " + n(s.check_new) + " new, " +
          n(s.check_missing) + " missing";
  if (!run.static_checks_only.empty())
    line += "; " + run.static_checks_only;
  return line;
}

std::string verdict_heading(const judged_run& run) {
  if (run.status != exit_code::success)
    return "FAILED";
  return run.unmeasured ? "passed (static checks only)" : "passed";
}

}  // namespace counterguard
