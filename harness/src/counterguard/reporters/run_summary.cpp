// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/run_summary.hpp"

#include "counterguard/checker/run_verdict.hpp"

namespace counterguard {

case_outcome outcome_of(const case_result& result, bool strict) {
  if (result.status == case_status::error)
    return case_outcome::error;
  if (result.status == case_status::skipped)
    return case_outcome::skipped;
  if (result.status == case_status::failed)
    return case_outcome::failed;
  if (result.verified && !*result.verified)
    return case_outcome::failed;
  for (const auto& check : result.checks) {
    if (is_failing(check, strict))
      return case_outcome::failed;
  }
  return case_outcome::passed;
}

run_summary summarize(const run_results& results, bool strict) {
  run_summary s;
  for (const auto& result : results.cases) {
    ++s.cases;
    s.seconds += result.seconds;
    switch (outcome_of(result, strict)) {
      case case_outcome::passed:
        ++s.passed;
        break;
      case case_outcome::failed:
        ++s.failed;
        break;
      case case_outcome::skipped:
        ++s.skipped;
        break;
      case case_outcome::error:
        ++s.errors;
        break;
    }
    if (result.verified && !*result.verified)
      ++s.wrong_output;
    if (result.unverified)
      ++s.unverified;
    for (const auto& check : result.checks) {
      ++s.checks;
      if (is_failing(check, strict))
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
  s.status = decide_exit_code(results, strict);
  s.unmeasured = counters_not_checked(results);
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
