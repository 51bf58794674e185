#include "counterguard/measurement/measure_case_parts.hpp"

#include <algorithm>

#include "counterguard/evaluator/counter_data_evaluator.hpp"
#include "counterguard/measurement/case_measurement.hpp"

namespace counterguard {

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

}  // namespace counterguard
