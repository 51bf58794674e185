// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/hardware_counter_stage.hpp"

#include <algorithm>

#include "counterguard/cupti/instrumented_counter.hpp"

namespace counterguard {

std::string hardware_counter_stage(const std::string& raw_metric) {
  if (is_instrumented_counter(raw_metric))
    return {};
  const std::size_t unit_end = raw_metric.find("__");
  if (unit_end == std::string::npos)
    return raw_metric;
  const std::size_t word = unit_end + 2;
  const std::size_t word_end = raw_metric.find_first_of("_.", word);
  return raw_metric.substr(0, word_end == std::string::npos ? std::string::npos : word_end);
}

std::vector<std::string> hardware_counter_stages(const std::vector<std::string>& raw_metrics) {
  std::vector<std::string> stages;
  for (const auto& metric : raw_metrics) {
    std::string stage = hardware_counter_stage(metric);
    if (!stage.empty())
      stages.push_back(std::move(stage));
  }
  std::sort(stages.begin(), stages.end());
  stages.erase(std::unique(stages.begin(), stages.end()), stages.end());
  return stages;
}

}  // namespace counterguard
