// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/case_instance.hpp"
#include "counterguard/planning/profiler_configuration_plan.hpp"
#include "counterguard/planning/worker_plan.hpp"

namespace counterguard {

// How far a worker lets cases share a range-profiler configuration (COUNTERGUARD_PROFILER_CONFIGURATIONS):
//   hardware_stages  cases that collect hardware counters of the same stages (hardware_counter_stage.hpp:
//                    none for instrumented counters), up to allowed_passes(own) passes per case (the default:
//                    a case never replays with a hardware stage it does not collect itself, and instrumented
//                    counters add cheap passes only)
//   no_extra_passes  only where no case needs more passes than alone, whatever the stages (on the H200 the
//                    built-in suite took 5.4 s, against 6.7 s shared and 8.6 s per case,
//                    on the H200)
//   shared           up to allowed_passes(own) passes per case, whatever the stages
//   per_case         every case alone, with exactly its own metrics (as before configurations were shared)
// A case that measures a noisy metric always keeps exactly its own metrics: a noisy value may depend on what
// else is collected, and must not depend on which other cases a run selects.
enum class configuration_sharing { hardware_stages, shared, no_extra_passes, per_case };

// The sharing COUNTERGUARD_PROFILER_CONFIGURATIONS asks for (hardware_stages when unset); input_error naming
// the variable and the valid values otherwise.
[[nodiscard]] configuration_sharing configuration_sharing_from_environment();
// The name COUNTERGUARD_PROFILER_CONFIGURATIONS gives it.
[[nodiscard]] const char* to_string(configuration_sharing sharing);

// A worker's range-profiler configurations, planned before its first case from every case it may be handed
// (all the names of its request, streamed or not): each case is profiled with its configuration's raw
// metrics (a superset of its own), so the profiler switches configuration only between configurations
// (profiler_configuration_plan.hpp).
class worker_configurations {
 public:
  // `names`: the cases in the order of the request (position i is names[i]); `extra_metrics`: measured for
  // every case besides its own. `instances`: the loaded suites' instances by name. A name `instances` lacks,
  // and a skipped instance, collect nothing. input_error when the catalog or `passes` refuses a metric.
  worker_configurations(const std::vector<std::string>& names, const std::vector<std::string>& extra_metrics,
                        const std::map<std::string, case_instance>& instances, const metric_catalog& catalog,
                        const pass_counter& passes,
                        configuration_sharing sharing = configuration_sharing::hardware_stages);
  // The configurations the parent planned (worker_plan, without a problem): position i of the worker's cases
  // is position i of the plan.
  explicit worker_configurations(const worker_plan& plan);

  // The configuration of the case at `position` in `names`; -1 when it collects no counters.
  [[nodiscard]] int configuration_of(std::size_t position) const;
  // The raw CUPTI metrics the case at `position` is profiled with (sorted; empty when none).
  [[nodiscard]] const std::vector<std::string>& raw_metrics(std::size_t position) const;
  [[nodiscard]] const std::vector<profiler_configuration>& configurations() const {
    return m_plan.configurations;
  }

 private:
  void number_hardware_only_first();

  profiler_configuration_plan m_plan;
};

// What a worker handed any of `instances` plans (with `passes`): position i is instances[i].
[[nodiscard]] worker_configurations plan_for_instances(const std::vector<case_instance>& instances,
                                                       const std::vector<std::string>& extra_metrics,
                                                       const metric_catalog& catalog,
                                                       const pass_counter& passes,
                                                       configuration_sharing sharing);

// A run's profiler configurations, planned once for `chip` (its --chip) from all of `instances` in their
// order (position i is instances[i]), as a worker handed all of them would plan them: their raw metric names
// are checked first (raw_metric_name_check; a name the chip lacks is the plan's problem); any other failure
// leaves it unplanned (worker_plan::planned), for the workers to meet themselves.
[[nodiscard]] worker_plan plan_for_run(const std::vector<case_instance>& instances,
                                       const std::vector<std::string>& extra_metrics,
                                       const std::string& chip);

// The part of a run's plan for the instances at `positions` (what a worker restarted for the cases left is
// handed): only the configurations they use, in the run plan's order.
[[nodiscard]] worker_plan plan_for_positions(const worker_plan& run,
                                             const std::vector<std::size_t>& positions);

// The configuration a worker planning from all of `instances` (with `passes`) profiles each of them with, in
// their order; -1 for an instance that collects no counters. A worker handed any of them plans the same.
[[nodiscard]] std::vector<int> instance_configurations(const std::vector<case_instance>& instances,
                                                       const std::vector<std::string>& extra_metrics,
                                                       const metric_catalog& catalog,
                                                       const pass_counter& passes,
                                                       configuration_sharing sharing);

// The order in which one GPU's worker should profile instances of these `configurations`
// (instance_configurations) so that the instances of one configuration run one after another: positions,
// stable, by configuration number (configurations without instrumented counters first, then the others, each
// in the order of their first instance), instances without counters last.
[[nodiscard]] std::vector<std::size_t> order_by_configuration(const std::vector<int>& configurations);

}  // namespace counterguard
