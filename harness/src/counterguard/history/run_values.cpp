// SPDX-License-Identifier: Apache-2.0
#include "counterguard/history/run_values.hpp"

#include "counterguard/baselines/baseline_comparison.hpp"
#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/baselines/baseline_update.hpp"

namespace counterguard {

run_values values_of(const run_results& results) {
  run_values values;
  values.metadata = results.metadata;
  for (const auto& result : results.cases) {
    case_values entry;
    entry.instance = result.instance;
    entry.suite = result.suite;
    entry.status = result.status;
    for (const auto& [key, metrics] : measured_by_kernel_key(result)) {
      auto& readings = entry.kernels[key];
      for (const auto& [metric, value] : metrics) {
        const auto total = result.totals.find(metric);
        const metric_class cls =
            total != result.totals.end() ? total->second.cls : catalog_metric_traits(metric).cls;
        readings[metric] = metric_reading{value, cls};
      }
    }
    values.cases.push_back(std::move(entry));
  }
  return values;
}

}  // namespace counterguard
