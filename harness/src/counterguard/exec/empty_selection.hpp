// SPDX-License-Identifier: Apache-2.0
// A case whose selector selected no launch of the program: the message that says why (no injected process,
// the process selector, the launch skip, a near miss) with the kernels the program did launch, and the
// failing check that carries it.
#pragma once

#include <string>
#include <vector>

#include "counterguard/exec/recorded_processes.hpp"
#include "counterguard/model/case_instance.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// The message for a case that selected nothing: the selector, and what the program launched.
[[nodiscard]] std::string describe_empty_selection(const case_instance& instance,
                                                   const std::vector<recorded_process>& processes);

// The failing check of a case that selected nothing (metric `metric`, origin "selection", expected ">= 1",
// measured 0), at the case's `select:` in its suite file.
[[nodiscard]] check_outcome empty_selection_check(const case_instance& instance, const std::string& metric,
                                                  const std::string& message);

}  // namespace counterguard
