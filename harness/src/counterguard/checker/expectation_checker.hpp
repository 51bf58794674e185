// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "counterguard/model/case_instance.hpp"
#include "counterguard/model/expectation.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Relative slack every comparison allows, so a ratio computed in floating point (sectors / requests)
// equals the literal in the YAML. Far below one count for any counter that fits in a double exactly.
inline constexpr double expectation_epsilon = 1e-9;

// Whether `measured` satisfies the expectation (docs/baselines.md, "Expectations"):
//   allowed(b) = max(tolerance, expectation_epsilon) * max(|b|, 1e-12)
//   equals:  |measured - lower| <= allowed(lower)
//   min:     measured >= lower - allowed(lower)
//   max:     measured <= upper + allowed(upper)
//   between: both, inclusive.
// NaN never satisfies anything.
[[nodiscard]] bool satisfies(const resolved_expectation& expectation, double measured);

// Checks every expectation of `instance` against what `result` measured. An expectation without
// `kernel:` reads result.totals; one with `kernel: X` reads the metrics of every launch whose function
// is X (the full demangled name or its last `::` component), one outcome per launch. A metric nobody
// measured gives a failing `missing` outcome. Messages name the case, metric, expected and measured
// values and the YAML file:line.
[[nodiscard]] std::vector<check_outcome> check_expectations(const case_instance& instance,
                                                            const case_result& result);

// The same for a bare list of expectations (the instance name comes from result.instance).
[[nodiscard]] std::vector<check_outcome> check_expectations(
    const std::vector<resolved_expectation>& expectations, const case_result& result);

// Appends the outcomes of check_expectations to `result.checks`, unless the case was skipped or ended in an
// error: what such a case measured is not held against its expectations. Every caller that checks a run's
// cases (run, evaluate, the C ABI) goes through these.
void add_expectation_checks(const std::vector<resolved_expectation>& expectations, case_result& result);
void add_expectation_checks(const case_instance& instance, case_result& result);

// The checks of a case measured without counters (`static`, `run` without a GPU): its static expectations
// checked against `result`'s static measurements into `result.checks`, the others (exact and noisy metrics)
// counted as counter checks not run.
void check_static_expectations(const case_instance& instance, case_result& result);

// True when a launch's demangled function name is `kernel`: equal, or equal to its last `::` component.
[[nodiscard]] bool function_matches(const std::string& function, const std::string& kernel);

}  // namespace counterguard
