// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/planning/profiler_configuration_plan.hpp"

namespace counterguard {

// The profiler configurations the parent planned for a worker's cases (worker_configurations.hpp), for the
// chip the run names (--chip): what the parent hands a worker before its first case (the runner's protocol
// carries it as one line).
struct worker_plan {
  std::string chip;
  std::vector<profiler_configuration> configurations;
  std::vector<int> configuration_of;  // per position in the worker's cases; -1: no counters to collect
  // Why there is no plan: the cases ask for a counter the chip lacks (the input_error's message; the worker
  // reports it as an input error when its device has that chip).
  std::string problem;
  // False when the parent could not plan at all (the worker plans for itself, and meets the same failure).
  bool planned = true;
};

}  // namespace counterguard
