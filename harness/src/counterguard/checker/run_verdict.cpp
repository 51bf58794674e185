// SPDX-License-Identifier: Apache-2.0
#include "counterguard/checker/run_verdict.hpp"

namespace counterguard {

bool is_failing(const check_outcome& check, bool strict) {
  return check.failing || (strict && check.verdict == check_verdict::improvement);
}

int attention_rank(const check_outcome& check, bool strict) {
  switch (check.verdict) {
    case check_verdict::fail:
      return 2;
    case check_verdict::regression:
      return 3;
    case check_verdict::missing:
      return is_failing(check, strict) ? 4 : 6;
    case check_verdict::improvement:
      return is_failing(check, strict) ? 4 : 5;
    case check_verdict::new_metric:
      return 7;
    case check_verdict::pass:
      break;
  }
  return 8;
}

void settle_case_status(case_result& result, bool strict) {
  if (result.status == case_status::skipped || result.status == case_status::error)
    return;
  if (result.verified && !*result.verified) {
    result.status = case_status::failed;
    result.status_reason = "wrong output: " + result.verification_message;
    return;
  }
  std::size_t failing = 0;
  const check_outcome* first = nullptr;
  for (const auto& check : result.checks) {
    if (!is_failing(check, strict))
      continue;
    if (failing++ == 0)
      first = &check;
  }
  if (failing == 0) {
    result.status = case_status::passed;
    result.status_reason.clear();
    return;
  }
  result.status = case_status::failed;
  result.status_reason = first->message;
  if (failing > 1)
    result.status_reason += " (and " + std::to_string(failing - 1) + " more failing checks)";
}

case_status decided_status(const case_result& result, bool strict) {
  if (result.status != case_status::passed)
    return result.status;
  if (result.verified && !*result.verified)
    return case_status::failed;
  for (const auto& check : result.checks) {
    if (is_failing(check, strict))
      return case_status::failed;
  }
  return case_status::passed;
}

std::optional<unmeasured_counters> counters_not_checked(const run_results& results) {
  unmeasured_counters unmeasured;
  for (const auto& result : results.cases)
    unmeasured.checks += result.counter_checks_not_run;
  if (unmeasured.checks == 0)
    return std::nullopt;
  unmeasured.reason = results.metadata.counters_not_run.empty() ? std::string("nothing was profiled")
                                                                : results.metadata.counters_not_run;
  return unmeasured;
}

std::string describe_unmeasured(const unmeasured_counters& unmeasured) {
  return "static checks only: " + std::to_string(unmeasured.checks) + " counter check" +
         (unmeasured.checks == 1 ? "" : "s") + " not run: " + unmeasured.reason;
}

exit_code decide_exit_code(const run_results& results, bool strict) {
  for (const auto& result : results.cases) {
    const case_status status = decided_status(result, strict);
    if (status == case_status::failed || status == case_status::error)
      return exit_code::check_failed;
  }
  return exit_code::success;
}

}  // namespace counterguard
