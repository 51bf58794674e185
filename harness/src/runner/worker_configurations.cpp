#include "counterguard/runner/worker_configurations.hpp"

#include <cstdlib>
#include <string>

#include "counterguard/core/error.hpp"
#include "counterguard/measurement/metric_plan.hpp"

namespace counterguard {

configuration_sharing configuration_sharing_from_environment() {
  const char* value = std::getenv("COUNTERGUARD_PROFILER_CONFIGURATIONS");
  if (value == nullptr || std::string(value).empty() || std::string(value) == "shared")
    return configuration_sharing::shared;
  if (std::string(value) == "no_extra_passes")
    return configuration_sharing::no_extra_passes;
  if (std::string(value) == "per_case")
    return configuration_sharing::per_case;
  throw input_error({}, "COUNTERGUARD_PROFILER_CONFIGURATIONS", "is '" + std::string(value) + "'",
                    "shared (the default), no_extra_passes or per_case");
}

worker_configurations::worker_configurations(const worker_request& request,
                                             const std::map<std::string, case_instance>& instances,
                                             const metric_catalog& catalog, const pass_counter& passes,
                                             configuration_sharing sharing) {
  std::vector<std::vector<std::string>> metric_sets;
  metric_sets.reserve(request.instances.size());
  for (const auto& name : request.instances) {
    const auto found = instances.find(name);
    if (found == instances.end() || found->second.skip_reason) {
      metric_sets.emplace_back();
      continue;
    }
    metric_sets.push_back(plan_metrics(found->second, catalog, request.extra_metrics).raw_cupti);
  }
  switch (sharing) {
    case configuration_sharing::shared:
      m_plan = plan_profiler_configurations(metric_sets, passes);
      break;
    case configuration_sharing::no_extra_passes:
      m_plan = plan_profiler_configurations(metric_sets, passes, [](int own) { return own; });
      break;
    case configuration_sharing::per_case: {
      // Each distinct set its own configuration (sets are sorted and unique already: plan_metrics).
      std::map<std::vector<std::string>, int> index;
      for (const auto& metrics : metric_sets) {
        if (metrics.empty()) {
          m_plan.configuration_of.push_back(-1);
          continue;
        }
        const auto [found, added] = index.emplace(metrics, static_cast<int>(m_plan.configurations.size()));
        if (added)
          m_plan.configurations.push_back({metrics, passes(metrics)});
        m_plan.configuration_of.push_back(found->second);
      }
      break;
    }
  }
}

int worker_configurations::configuration_of(std::size_t position) const {
  if (position >= m_plan.configuration_of.size())
    throw internal_error("no profiler configuration planned for case position " + std::to_string(position));
  return m_plan.configuration_of[position];
}

const std::vector<std::string>& worker_configurations::raw_metrics(std::size_t position) const {
  static const std::vector<std::string> none;
  const int configuration = configuration_of(position);
  return configuration < 0 ? none
                           : m_plan.configurations[static_cast<std::size_t>(configuration)].raw_metrics;
}

}  // namespace counterguard
