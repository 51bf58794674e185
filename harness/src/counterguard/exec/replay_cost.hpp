// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counterguard/exec/recorded_processes.hpp"

namespace counterguard {

// A note for the run's output when the profiled launches were slowed by what kernel replay costs in this
// program: between passes CUPTI saves and restores the device memory the program holds, so a launch that
// needs more than one pass costs time in proportion to it. Nothing when no launch needed a second pass or the
// cost stayed small.
[[nodiscard]] std::optional<std::string> describe_replay_cost(const std::vector<recorded_process>& processes);

}  // namespace counterguard
