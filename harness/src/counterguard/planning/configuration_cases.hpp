// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/model/case_instance.hpp"
#include "counterguard/planning/worker_configurations.hpp"

namespace counterguard {

// The cases each planned profiler configuration serves, by name: what `counterguard plan` shows of a run.
struct configuration_cases {
  std::vector<std::vector<std::string>> cases;  // per configuration of the plan, in its order
  std::vector<std::string> without_counters;    // instances that collect no counters (launch attributes only)
};

// Groups `instances` by the configuration `planned` gives them (position i of the plan is instances[i]), each
// group in the instances' order.
[[nodiscard]] configuration_cases cases_by_configuration(const std::vector<case_instance>& instances,
                                                         const worker_configurations& planned);

}  // namespace counterguard
