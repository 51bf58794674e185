// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>

#include "counterguard/metrics/metric_definition.hpp"

namespace counterguard {

// Evaluates a cupti-source metric from raw counter values (its formula over raw_inputs). Division by a
// zero count yields 0 (no requests, no sectors per request). Throws internal_error naming a missing
// input (callers check that every input was measured).
[[nodiscard]] double evaluate_derived_metric(const metric_definition& definition,
                                             const std::map<std::string, double>& raw_values);

}  // namespace counterguard
