// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/model/case_instance.hpp"
#include "counterguard/results/run_results.hpp"
#include "counterguard/statics/binary_resources.hpp"

namespace counterguard {

// The static expectations of `instances` checked against the kernels of compiled binaries: one result per
// case and architecture ("suite/case?arch=sm_90" when the matching kernels come in several), a failed one
// listing the binaries' kernels when a case's kernel pattern matches none, a skipped one for a case that
// selects only by NVTX range. The checks are in the results.
[[nodiscard]] run_results static_binary_results(const std::vector<binary_resources>& binaries,
                                                const std::vector<case_instance>& instances,
                                                const std::string& command_line);

// Prints, on stderr, the message of every failing check about what a case selected or how the program ran
// (origins "selection" and "program"): the console table has no room for the kernels a program launched.
void print_selection_failures(const run_results& results);

}  // namespace counterguard
