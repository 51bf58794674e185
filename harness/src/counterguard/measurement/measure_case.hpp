// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "counterguard/measurement/case_observation.hpp"
#include "counterguard/planning/metric_plan.hpp"
#include "counterguard/results/run_results.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// The one measurement path. Every front door (run, baseline update, evaluate, exec, the GoogleTest API) turns
// what it observed into values here, so they cannot disagree about a value: the image's counters are
// evaluated, then every metric of `plan` is filled per kernel launch and for the case as a whole
// (fill_measurements), and the verification outcome settles a wrong answer as a failed case. `result` keeps
// its identity (instance, suite, parameters) and gets kernels, totals, passes, verified and status.
void measure_case(case_result& result, const metric_plan& plan, const case_observation& observation,
                  const std::vector<kernel_resources>& resources);

// measure_case for a case observed in parts, each with its own counter-data image: `counterguard exec`
// profiles a program's launches one at a time. Every part's image is evaluated and its ranges stand, in
// order, for the part's launches; then the case is measured exactly as measure_case measures one image
// (fill_measurements: per-launch metrics, case totals). Parts without counters contribute their launches'
// attributes. The largest pass count of the parts is reported.
void measure_case_parts(case_result& result, const metric_plan& plan,
                        const std::vector<case_observation>& parts,
                        const std::vector<kernel_resources>& resources);

// The plan for measuring a case instance from an observation: its expectations' metrics plus every metric the
// observation measured (the extras a run was asked for with --metric), resolved through `catalog`.
[[nodiscard]] metric_plan plan_for_observation(const case_instance& instance,
                                               const case_observation& observation,
                                               const metric_catalog& catalog);

}  // namespace counterguard
