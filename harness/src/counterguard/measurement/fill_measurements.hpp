// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <vector>

#include "counterguard/evaluator/counter_data_evaluator.hpp"
#include "counterguard/planning/metric_plan.hpp"
#include "counterguard/profiler/profiled_launch.hpp"
#include "counterguard/results/run_results.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// Fills a case result's per-kernel metrics and case totals from what was measured: the evaluated counter
// ranges with their launches (GPU or offline evaluation alike), the compiler's resources and the metrics the
// kernel computed itself. Totals: summable CUPTI metrics are the formula of the summed counters; static and
// launch metrics the largest over the kernels; other metrics only when the case launched one kernel.
void fill_measurements(case_result& result, const metric_plan& plan,
                       const std::vector<profiled_launch>& launches,
                       const std::vector<evaluated_range>& ranges,
                       const std::vector<kernel_resources>& resources,
                       const std::map<std::string, double>& kernel_metrics);

// Static metrics only (no GPU): one kernel entry per device function the variant declares.
void fill_static_measurements(case_result& result, const metric_plan& plan,
                              const std::vector<std::string>& device_functions,
                              const std::vector<kernel_resources>& resources);

// The resources of the function a launch ran: those its code key names (kernel_resources::module and the
// mangled name: never another module's function of the same name), else a compile-time report of that
// function (resources read from files) that agrees with the driver's registers, local and static shared bytes
// of the launched one; for a launch without a key (older recordings, a launch whose function could not be
// queried), the first of that name; nullptr when none.
[[nodiscard]] const kernel_resources* find_launched_code(const std::vector<kernel_resources>& resources,
                                                         const profiled_launch& launch);

// The compiler's report for a device function; nullptr when no embedded report names it.
[[nodiscard]] const kernel_resources* find_kernel_resources(const std::vector<kernel_resources>& resources,
                                                            const std::string& function);

}  // namespace counterguard
