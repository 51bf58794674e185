// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "counterguard/model/case_instance.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// A result with the instance's identity filled in (name, suite, case, kernel, parameters) and status passed.
[[nodiscard]] case_result make_case_result(const case_instance& instance);

}  // namespace counterguard
