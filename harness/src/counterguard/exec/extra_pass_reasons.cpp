// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/extra_pass_reasons.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "counterguard/cupti/instrumented_counter.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/planning/metric_plan.hpp"

namespace counterguard {
namespace {

// The group that holds `counter`; -1 when none does.
int group_of(const pass_groups& plan, const std::string& counter) {
  for (std::size_t g = 0; g < plan.groups.size(); ++g) {
    if (std::binary_search(plan.groups[g].begin(), plan.groups[g].end(), counter))
      return static_cast<int>(g);
  }
  return -1;
}

}  // namespace

std::vector<std::string> extra_pass_reasons(const pass_groups& plan,
                                            const std::vector<metric_definition>& metrics) {
  std::vector<std::string> reasons;
  if (plan.groups.size() < 2)
    return reasons;
  std::set<std::string> named;
  for (const auto& metric : metrics) {
    int last_group = 0;
    bool instrumented = false;
    for (const auto& input : metric.raw_inputs) {
      const int group = group_of(plan, input);
      if (group > 0) {
        last_group = std::max(last_group, group);
        instrumented = instrumented || is_instrumented_counter(input);
      }
    }
    if (last_group == 0 || !named.insert(metric.name).second)
      continue;
    reasons.push_back(instrumented ? metric.name + ": instrumented counters take a pass of their own"
                                   : fmt::format("{}: its hardware counters do not fit in one pass with the "
                                                 "others' (pass {} of {})",
                                                 metric.name, last_group + 1, plan.groups.size()));
  }
  return reasons;
}

std::vector<std::string> describe_extra_passes(const std::vector<recorded_process>& processes,
                                               const std::vector<case_instance>& instances,
                                               const std::vector<std::string>& extra_metrics) {
  struct configuration {
    std::string chip;
    std::set<std::string> cases;
    std::size_t launches = 0;
  };
  std::map<std::vector<std::string>, configuration> configurations;
  for (const auto& process : processes) {
    for (const auto& launch : process.launches) {
      int passes = launch.data.passes;
      std::set<std::string> counters(launch.data.raw_metrics.begin(), launch.data.raw_metrics.end());
      for (const auto& group : launch.further_groups) {
        passes += group.passes;
        counters.insert(group.raw_metrics.begin(), group.raw_metrics.end());
      }
      if (passes < 2 && launch.pass_groups < 2)
        continue;
      configuration& entry = configurations[{counters.begin(), counters.end()}];
      entry.chip = launch.data.image.chip;
      entry.cases.insert(launch.cases.begin(), launch.cases.end());
      ++entry.launches;
    }
  }
  std::vector<std::string> lines;
  const metric_catalog& catalog = metric_catalog::builtin();
  for (const auto& [counters, entry] : configurations) {
    if (entry.chip.empty())
      continue;
    const pass_groups plan = plan_pass_groups(counters, entry.chip);
    std::vector<metric_definition> metrics;
    std::string cases;
    for (const auto& instance : instances) {
      if (entry.cases.count(instance.name) == 0)
        continue;
      cases += (cases.empty() ? "" : ", ") + instance.name;
      for (auto& metric : plan_metrics(instance, catalog, extra_metrics).metrics)
        metrics.push_back(std::move(metric));
    }
    std::string reasons;
    for (const auto& reason : extra_pass_reasons(plan, metrics))
      reasons += (reasons.empty() ? "" : "; ") + reason;
    lines.push_back(
        fmt::format("{} launch{} of {}: {} counters in {} pass{} (kernel replay), {} one-pass "
                    "group{}{}{}",
                    entry.launches, entry.launches == 1 ? "" : "es", cases, counters.size(),
                    plan.kernel_replay_passes, plan.kernel_replay_passes == 1 ? "" : "es", plan.groups.size(),
                    plan.groups.size() == 1 ? "" : "s", reasons.empty() ? "" : ": ", reasons));
  }
  return lines;
}

}  // namespace counterguard
