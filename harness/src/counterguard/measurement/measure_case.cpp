// SPDX-License-Identifier: Apache-2.0
#include "counterguard/measurement/measure_case.hpp"

#include <algorithm>

#include "counterguard/evaluator/counter_data_evaluator.hpp"
#include "counterguard/measurement/fill_measurements.hpp"

namespace counterguard {

void measure_case(case_result& result, const metric_plan& plan, const case_observation& observation,
                  const std::vector<kernel_resources>& resources) {
  const std::vector<evaluated_range> ranges =
      observation.raw_metrics.empty() || observation.image.bytes.empty()
          ? std::vector<evaluated_range>{}
          : evaluate_counter_data(observation.image, observation.raw_metrics);
  fill_measurements(result, plan, observation.launches, ranges, resources, observation.kernel_metrics);
  result.passes = observation.passes;
  result.verified = observation.verified;
  result.verification_message = observation.verification_message;
  result.unverified = observation.unverified;
  if (observation.verified == false) {
    result.status = case_status::failed;
    result.status_reason = "wrong output: " + observation.verification_message;
  }
}

void measure_case_parts(case_result& result, const metric_plan& plan,
                        const std::vector<case_observation>& parts,
                        const std::vector<kernel_resources>& resources) {
  std::vector<profiled_launch> launches;
  std::vector<evaluated_range> ranges;
  bool any_counters = false;
  int passes = 0;
  for (const case_observation& part : parts) {
    std::vector<evaluated_range> evaluated;
    if (!part.raw_metrics.empty() && !part.image.bytes.empty()) {
      evaluated = evaluate_counter_data(part.image, part.raw_metrics);
      any_counters = true;
    }
    for (const auto& further : part.further) {
      if (further.raw_metrics.empty() || further.image.bytes.empty())
        continue;
      const std::vector<evaluated_range> more = evaluate_counter_data(further.image, further.raw_metrics);
      evaluated.resize(std::max(evaluated.size(), more.size()));
      for (std::size_t r = 0; r < more.size(); ++r) {
        if (evaluated[r].name.empty())
          evaluated[r].name = more[r].name;
        evaluated[r].values.insert(more[r].values.begin(), more[r].values.end());
      }
      any_counters = true;
    }
    // One range per launch, in order; a launch the image has no range for (none collected) is unmeasured.
    evaluated.resize(part.launches.size());
    launches.insert(launches.end(), part.launches.begin(), part.launches.end());
    ranges.insert(ranges.end(), evaluated.begin(), evaluated.end());
    passes = std::max(passes, part.passes);
  }
  if (!any_counters)
    ranges.clear();
  fill_measurements(result, plan, launches, ranges, resources, {});
  result.passes = passes;
}

metric_plan plan_for_observation(const case_instance& instance, const case_observation& observation,
                                 const metric_catalog& catalog) {
  std::vector<std::string> extras;
  for (const auto& name : observation.metrics) {
    if (catalog.try_resolve(name))
      extras.push_back(name);  // a name this version no longer knows is left out, not an error
  }
  return plan_metrics(instance, catalog, extras);
}

}  // namespace counterguard
