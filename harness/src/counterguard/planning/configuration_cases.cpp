// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/configuration_cases.hpp"

namespace counterguard {

configuration_cases cases_by_configuration(const std::vector<case_instance>& instances,
                                           const worker_configurations& planned) {
  configuration_cases grouped;
  grouped.cases.resize(planned.configurations().size());
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const int configuration = planned.configuration_of(i);
    (configuration < 0 ? grouped.without_counters : grouped.cases[static_cast<std::size_t>(configuration)])
        .push_back(instances[i].name);
  }
  return grouped;
}

}  // namespace counterguard
