#include "counterguard/measurement/measure_case.hpp"

#include "counterguard/evaluator/counter_data_evaluator.hpp"
#include "counterguard/measurement/case_measurement.hpp"

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
