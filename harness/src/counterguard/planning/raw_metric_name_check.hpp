// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>

#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/case_instance.hpp"

namespace counterguard {

// Every raw CUPTI name a case needs, its own or an alias's inputs, must exist on the validator's chip: an
// unknown name is an input error before the case runs, naming the expectation that asked for it (file:line,
// field) and the closest names the chip has. The parent checks the selection for the run's --chip as it plans
// the profiler configurations (plan_for_run) and when it has no GPU worker; a worker whose device has another
// chip checks its request for that chip.
class raw_metric_name_check {
 public:
  raw_metric_name_check(const metric_catalog& catalog, const metric_name_validator& validator)
      : m_catalog(catalog), m_validator(validator) {}

  // Throws an input_error for a raw metric of `instance` the chip lacks (an input_error_list for several).
  void check(const case_instance& instance);

 private:
  const metric_catalog& m_catalog;
  const metric_name_validator& m_validator;
  std::map<std::string, bool> m_verdicts;  // by raw name: thousands of generated cases share a few names
};

}  // namespace counterguard
