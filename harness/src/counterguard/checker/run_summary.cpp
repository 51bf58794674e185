// SPDX-License-Identifier: Apache-2.0
#include "counterguard/checker/run_summary.hpp"

#include "counterguard/checker/run_verdict.hpp"

namespace counterguard {

run_summary summarize(const run_results& results, const std::vector<case_status>& statuses, bool strict) {
  run_summary s;
  for (std::size_t i = 0; i < results.cases.size(); ++i) {
    const case_result& result = results.cases[i];
    ++s.cases;
    s.seconds += result.seconds;
    switch (statuses[i]) {
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
  return s;
}

}  // namespace counterguard
