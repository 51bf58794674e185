#pragma once

#include <vector>

#include "counterguard/measurement/case_observation.hpp"
#include "counterguard/measurement/metric_plan.hpp"
#include "counterguard/results/run_results.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// measure_case for a case observed in parts, each with its own counter-data image: `counterguard exec`
// profiles a program's launches one at a time. Every part's image is evaluated and its ranges stand, in
// order, for the part's launches; then the case is measured exactly as measure_case measures one image
// (fill_measurements: per-launch metrics, case totals). Parts without counters contribute their launches'
// attributes. The largest pass count of the parts is reported.
void measure_case_parts(case_result& result, const metric_plan& plan,
                        const std::vector<case_observation>& parts,
                        const std::vector<kernel_resources>& resources);

}  // namespace counterguard
