// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// The checks of `result` a report lists, in their order: all of them when the case launched more than one
// kernel; otherwise without the per-kernel checks that repeat a case-total check (the same metric, origin
// and verdict: one launch measured both, so a one-kernel case would list each baseline check twice).
// A per-kernel check that says something its total does not (another verdict, or no total) stays.
[[nodiscard]] std::vector<const check_outcome*> shown_checks(const case_result& result);

}  // namespace counterguard
