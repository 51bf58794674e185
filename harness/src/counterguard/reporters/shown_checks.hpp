// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// The checks of `result` a report lists, in their order: all of them when the case launched more than one
// kernel; otherwise without the per-kernel checks that repeat a case-total check (the same metric, origin
// and verdict: one launch measured both, so a one-kernel case would list each baseline check twice).
// A per-kernel check that says something its total does not (another verdict, or no total) stays.
[[nodiscard]] std::vector<const check_outcome*> shown_checks(const case_result& result);

// A check's verdict as report tables word it: its results name, "new" for a new metric.
[[nodiscard]] std::string shown_verdict(check_verdict verdict);

// The suite line a check comes from: its own expectation's, or for a baseline check the line of the
// expectation the case states about the same metric (and kernel); null when there is none.
[[nodiscard]] const source_location* expectation_line(const case_result& result, const check_outcome& check);

// The metric a report names for `check`: "shared_load_requests", or "shared_load_requests [KERNEL]" when the
// check is about one kernel.
[[nodiscard]] std::string shown_metric(const check_outcome& check);

// How far `check` measured from its baseline, as report tables show it ("+1024", "-0.5"); "-" when it has no
// baseline or no measured value.
[[nodiscard]] std::string shown_delta(const check_outcome& check);

}  // namespace counterguard
