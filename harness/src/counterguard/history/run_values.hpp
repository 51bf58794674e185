// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "counterguard/metrics/metric_class.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// One measured value with the class it is compared by. NaN: the run did not measure it.
struct metric_reading {
  double value = std::numeric_limits<double>::quiet_NaN();
  metric_class cls = metric_class::exact;
};

// The values of one case instance by kernel key (baseline_total_key "total" for the case totals, else
// kernel_key() of the launch, as baseline files key them) and metric name.
struct case_values {
  std::string instance;
  std::string suite;
  case_status status = case_status::passed;
  std::map<std::string, std::map<std::string, metric_reading>> kernels;
};

// What a run measured, in the form the history store keeps and `counterguard compare` compares.
struct run_values {
  run_metadata metadata;
  std::vector<case_values> cases;  // in the run's order
};

// The values of a results file: totals keep the class the run reported; a per-launch metric takes the class
// of the case total of the same name, else the metric catalog's (as `baseline update` classifies it).
[[nodiscard]] run_values values_of(const run_results& results);

}  // namespace counterguard
