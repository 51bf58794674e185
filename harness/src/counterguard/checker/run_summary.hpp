// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <vector>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Counts every report prints, counted from the checker's decisions once (judge_run holds them).
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
  std::size_t failing_checks = 0;  // is_failing under the run's rule
  double seconds = 0.0;
};

// Counts `results`' cases by `statuses` (decided_status of each, in their order) and their checks by verdict,
// failing ones under `strict`.
[[nodiscard]] run_summary summarize(const run_results& results, const std::vector<case_status>& statuses,
                                    bool strict);

}  // namespace counterguard
