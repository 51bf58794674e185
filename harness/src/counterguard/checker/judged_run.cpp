// SPDX-License-Identifier: Apache-2.0
#include "counterguard/checker/judged_run.hpp"

#include <utility>

namespace counterguard {

judged_run judge_run(run_results results, bool strict) {
  judged_run judged;
  judged.strict = strict;
  judged.statuses.reserve(results.cases.size());
  for (const auto& result : results.cases)
    judged.statuses.push_back(decided_status(result, strict));
  judged.status = decide_exit_code(results, strict);
  judged.unmeasured = counters_not_checked(results);
  if (judged.unmeasured)
    judged.static_checks_only = describe_unmeasured(*judged.unmeasured);
  judged.summary = summarize(results, judged.statuses, strict);
  judged.shown.reserve(results.cases.size());
  for (const auto& result : results.cases)
    judged.shown.push_back(show_case(result, strict));
  judged.results = std::move(results);
  return judged;
}

}  // namespace counterguard
