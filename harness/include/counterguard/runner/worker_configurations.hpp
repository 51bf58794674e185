#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "counterguard/measurement/profiler_configuration_plan.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/case_instance.hpp"
#include "counterguard/runner/worker_protocol.hpp"

namespace counterguard {

// How far a worker lets cases share a range-profiler configuration (COUNTERGUARD_PROFILER_CONFIGURATIONS):
//   shared           up to allowed_passes(own) passes per case (the default)
//   no_extra_passes  only where no case needs more passes than alone
//   per_case         every case alone, with exactly its own metrics (as before configurations were shared)
enum class configuration_sharing { shared, no_extra_passes, per_case };

// The sharing COUNTERGUARD_PROFILER_CONFIGURATIONS asks for (shared when unset); input_error naming the
// variable and the valid values otherwise.
[[nodiscard]] configuration_sharing configuration_sharing_from_environment();

// A worker's range-profiler configurations, planned before its first case from every case its request may
// hand it (all of request.instances, streamed or not): each case is profiled with its configuration's raw
// metrics (a superset of its own), so the profiler switches configuration only between configurations
// (profiler_configuration_plan.hpp).
class worker_configurations {
 public:
  // `instances`: the loaded suites' instances by name. A name the request lists but `instances` lacks, and a
  // skipped instance, collect nothing. input_error when the catalog or `passes` refuses a metric.
  worker_configurations(const worker_request& request, const std::map<std::string, case_instance>& instances,
                        const metric_catalog& catalog, const pass_counter& passes,
                        configuration_sharing sharing = configuration_sharing::shared);

  // The configuration of the case at `position` in request.instances; -1 when it collects no counters.
  [[nodiscard]] int configuration_of(std::size_t position) const;
  // The raw CUPTI metrics the case at `position` is profiled with (sorted; empty when none).
  [[nodiscard]] const std::vector<std::string>& raw_metrics(std::size_t position) const;
  [[nodiscard]] const std::vector<profiler_configuration>& configurations() const {
    return m_plan.configurations;
  }

 private:
  profiler_configuration_plan m_plan;
};

}  // namespace counterguard
