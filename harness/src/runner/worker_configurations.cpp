#include "counterguard/runner/worker_configurations.hpp"

#include "counterguard/core/error.hpp"
#include "counterguard/measurement/metric_plan.hpp"

namespace counterguard {

worker_configurations::worker_configurations(const worker_request& request,
                                             const std::map<std::string, case_instance>& instances,
                                             const metric_catalog& catalog, const pass_counter& passes) {
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
  m_plan = plan_profiler_configurations(metric_sets, passes);
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
