// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/run_summary.hpp"

namespace counterguard {

run_summary summarize(const judged_run& run) {
  run_summary s;
  for (std::size_t i = 0; i < run.results.cases.size(); ++i) {
    const case_result& result = run.results.cases[i];
    ++s.cases;
    s.seconds += result.seconds;
    switch (run.statuses[i]) {
      case case_status::passed:
        ++s.passed;
        break;
      case case_status::failed:
        ++s.failed;
        break;
      case case_status::skipped:
        ++s.skipped;
        break;
      case case_status::error:
        ++s.errors;
        break;
    }
    if (result.verified && !*result.verified)
      ++s.wrong_output;
    if (result.unverified)
      ++s.unverified;
    for (const auto& check : result.checks) {
      ++s.checks;
      if (run.fails(check))
        ++s.failing_checks;
      switch (check.verdict) {
        case check_verdict::pass:
          ++s.check_pass;
          break;
        case check_verdict::fail:
          ++s.check_fail;
          break;
        case check_verdict::regression:
          ++s.check_regression;
          break;
        case check_verdict::improvement:
          ++s.check_improvement;
          break;
        case check_verdict::new_metric:
          ++s.check_new;
          break;
        case check_verdict::missing:
          ++s.check_missing;
          break;
      }
    }
  }
  s.status = run.status;
  s.unmeasured = run.unmeasured;
  return s;
}

std::string summary_line(const run_summary& s) {
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
  if (s.unmeasured)
    line += "; " + describe_unmeasured(*s.unmeasured);
  return line;
}

std::string verdict_heading(const run_summary& s) {
  if (s.status != exit_code::success)
    return "FAILED";
  return s.unmeasured ? "passed (static checks only)" : "passed";
}

}  // namespace counterguard
