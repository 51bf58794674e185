// SPDX-License-Identifier: Apache-2.0
#include "counterguard/pipeline/profiler_plan.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/planning/configuration_cases.hpp"
#include "counterguard/planning/hardware_counter_stage.hpp"
#include "counterguard/planning/worker_configurations.hpp"
#include "counterguard/reporters/report_output.hpp"

namespace counterguard {

int print_profiler_plan(const selection_options& selection, const std::string& json) {
  const std::vector<case_instance> instances = select_instances(selection);
  const metric_name_validator validator(selection.chip);
  const configuration_sharing sharing = configuration_sharing_from_environment();
  const worker_configurations planned = plan_for_instances(
      instances, {}, metric_catalog::builtin(),
      [&](const std::vector<std::string>& metrics) { return validator.pass_count(metrics); }, sharing);

  const configuration_cases grouped = cases_by_configuration(instances, planned);
  const std::vector<std::vector<std::string>>& cases = grouped.cases;
  const std::vector<std::string>& uncounted = grouped.without_counters;
  if (!json.empty()) {
    nlohmann::json out = {{"chip", validator.chip()},
                          {"sharing", to_string(sharing)},
                          {"configurations", nlohmann::json::array()},
                          {"without_counters", uncounted}};
    for (std::size_t c = 0; c < cases.size(); ++c) {
      const profiler_configuration& configuration = planned.configurations()[c];
      out["configurations"].push_back(
          {{"passes", configuration.passes},
           {"raw_metrics", configuration.raw_metrics},
           {"hardware_stages", hardware_counter_stages(configuration.raw_metrics)},
           {"cases", cases[c]}});
    }
    write_report_text(json, out.dump(1) + "\n");
    if (is_standard_output(json))
      return 0;
  }
  std::string text = std::to_string(cases.size()) + " profiler configuration" +
                     (cases.size() == 1 ? "" : "s") + " for " + std::to_string(instances.size()) +
                     " case instances on chip " + validator.chip() + " (sharing: " + to_string(sharing) +
                     ")\n";
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const profiler_configuration& configuration = planned.configurations()[c];
    const std::vector<std::string> stages = hardware_counter_stages(configuration.raw_metrics);
    std::string stage_list;
    for (const auto& stage : stages)
      stage_list += (stage_list.empty() ? "" : ", ") + stage;
    text += "configuration " + std::to_string(c) + ": " + std::to_string(configuration.passes) + " pass" +
            (configuration.passes == 1 ? "" : "es") + ", " + std::to_string(cases[c].size()) + " case" +
            (cases[c].size() == 1 ? "" : "s") +
            ", hardware counter stages: " + (stage_list.empty() ? "none (instrumented only)" : stage_list) +
            "\n";
    for (const auto& metric : configuration.raw_metrics)
      text += "  counter " + metric + "\n";
    for (const auto& name : cases[c])
      text += "  case    " + name + "\n";
  }
  if (!uncounted.empty())
    text += "no counters (launch attributes only): " + std::to_string(uncounted.size()) + " case" +
            (uncounted.size() == 1 ? "" : "s") + "\n";
  std::fputs(text.c_str(), stdout);
  return 0;
}

}  // namespace counterguard
