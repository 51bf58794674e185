// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/worker_configurations.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <string>

#include "counterguard/core/error.hpp"
#include "counterguard/cupti/instrumented_counter.hpp"
#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/planning/hardware_counter_stage.hpp"
#include "counterguard/planning/metric_plan.hpp"
#include "counterguard/planning/raw_metric_name_check.hpp"

namespace counterguard {

configuration_sharing configuration_sharing_from_environment() {
  const char* value = std::getenv("COUNTERGUARD_PROFILER_CONFIGURATIONS");
  if (value == nullptr || std::string(value).empty() || std::string(value) == "hardware_stages")
    return configuration_sharing::hardware_stages;
  if (std::string(value) == "no_extra_passes")
    return configuration_sharing::no_extra_passes;
  if (std::string(value) == "shared")
    return configuration_sharing::shared;
  if (std::string(value) == "per_case")
    return configuration_sharing::per_case;
  throw input_error({}, "COUNTERGUARD_PROFILER_CONFIGURATIONS", "is '" + std::string(value) + "'",
                    "hardware_stages (the default), no_extra_passes, shared or per_case");
}

const char* to_string(configuration_sharing sharing) {
  switch (sharing) {
    case configuration_sharing::hardware_stages:
      return "hardware_stages";
    case configuration_sharing::shared:
      return "shared";
    case configuration_sharing::no_extra_passes:
      return "no_extra_passes";
    case configuration_sharing::per_case:
      return "per_case";
  }
  return "unknown";
}

namespace {

// Plans each group of sets with the same hardware counter stages on its own, up to allowed_passes: a set
// never shares a configuration with a stage it lacks (each launch replays every stage of its configuration).
profiler_configuration_plan plan_by_hardware_stages(const std::vector<std::vector<std::string>>& sets,
                                                    const pass_counter& passes) {
  std::map<std::vector<std::string>, std::vector<std::size_t>> by_stages;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    if (!sets[i].empty())
      by_stages[hardware_counter_stages(sets[i])].push_back(i);
  }
  profiler_configuration_plan plan;
  plan.configuration_of.assign(sets.size(), -1);
  for (const auto& [stages, members] : by_stages) {
    std::vector<std::vector<std::string>> group;
    group.reserve(members.size());
    for (const std::size_t i : members)
      group.push_back(sets[i]);
    const profiler_configuration_plan part = plan_profiler_configurations(group, passes);
    const int offset = static_cast<int>(plan.configurations.size());
    plan.configurations.insert(plan.configurations.end(), part.configurations.begin(),
                               part.configurations.end());
    for (std::size_t k = 0; k < members.size(); ++k)
      plan.configuration_of[members[k]] =
          part.configuration_of[k] < 0 ? -1 : offset + part.configuration_of[k];
  }
  return plan;
}

}  // namespace

worker_configurations::worker_configurations(const std::vector<std::string>& names,
                                             const std::vector<std::string>& extra_metrics,
                                             const std::map<std::string, case_instance>& instances,
                                             const metric_catalog& catalog, const pass_counter& passes,
                                             configuration_sharing sharing) {
  std::vector<std::vector<std::string>> metric_sets;
  std::vector<bool> alone;  // per set: a noisy case, profiled with exactly its own metrics
  metric_sets.reserve(names.size());
  for (const auto& name : names) {
    const auto found = instances.find(name);
    if (found == instances.end() || found->second.skip_reason) {
      metric_sets.emplace_back();
      alone.push_back(false);
      continue;
    }
    const metric_plan plan = plan_metrics(found->second, catalog, extra_metrics);
    metric_sets.push_back(plan.raw_cupti);
    alone.push_back(sharing != configuration_sharing::per_case && measures_noisy_metric(found->second, plan));
  }
  // The noisy cases' sets are planned on their own below; the others share.
  std::vector<std::vector<std::string>> shared_sets = metric_sets;
  for (std::size_t i = 0; i < shared_sets.size(); ++i) {
    if (alone[i])
      shared_sets[i].clear();
  }
  switch (sharing) {
    case configuration_sharing::hardware_stages:
      m_plan = plan_by_hardware_stages(shared_sets, passes);
      break;
    case configuration_sharing::shared:
      m_plan = plan_profiler_configurations(shared_sets, passes);
      break;
    case configuration_sharing::no_extra_passes:
      m_plan = plan_profiler_configurations(shared_sets, passes, [](int own) { return own; });
      break;
    case configuration_sharing::per_case:
      m_plan.configuration_of.assign(metric_sets.size(), -1);
      std::fill(alone.begin(), alone.end(), true);
      break;
  }
  // Each distinct set that is alone its own configuration (sets are sorted and unique already: plan_metrics).
  std::map<std::vector<std::string>, int> index;
  for (std::size_t i = 0; i < metric_sets.size(); ++i) {
    if (!alone[i] || metric_sets[i].empty())
      continue;
    const auto [found, added] = index.emplace(metric_sets[i], static_cast<int>(m_plan.configurations.size()));
    if (added)
      m_plan.configurations.push_back({metric_sets[i], passes(metric_sets[i])});
    m_plan.configuration_of[i] = found->second;
  }
  number_hardware_only_first();
}

// Configurations without instrumented counters get the first numbers, then the others, each in the order of
// their first case; a worker profiles configurations in that order (order_by_configuration). Why: with
// CUPTI's session API a switch from instrumented counters to hardware counters only ends the session (it
// crashed inside CUPTI on the H200: profiler_session), and a new one costs about 70 ms.
void worker_configurations::number_hardware_only_first() {
  const std::size_t count = m_plan.configurations.size();
  std::vector<std::size_t> first(count, m_plan.configuration_of.size());
  for (std::size_t i = m_plan.configuration_of.size(); i-- > 0;) {
    if (m_plan.configuration_of[i] >= 0)
      first[static_cast<std::size_t>(m_plan.configuration_of[i])] = i;
  }
  std::vector<std::size_t> order(count);
  for (std::size_t c = 0; c < count; ++c)
    order[c] = c;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const bool a_instrumented = has_instrumented_counter(m_plan.configurations[a].raw_metrics);
    const bool b_instrumented = has_instrumented_counter(m_plan.configurations[b].raw_metrics);
    if (a_instrumented != b_instrumented)
      return b_instrumented;
    return first[a] < first[b];
  });
  std::vector<int> number(count);
  std::vector<profiler_configuration> renumbered;
  renumbered.reserve(count);
  for (std::size_t k = 0; k < count; ++k) {
    number[order[k]] = static_cast<int>(k);
    renumbered.push_back(std::move(m_plan.configurations[order[k]]));
  }
  m_plan.configurations = std::move(renumbered);
  for (int& configuration : m_plan.configuration_of) {
    if (configuration >= 0)
      configuration = number[static_cast<std::size_t>(configuration)];
  }
}

worker_configurations::worker_configurations(const worker_plan& plan) {
  m_plan.configurations = plan.configurations;
  m_plan.configuration_of = plan.configuration_of;
}

worker_plan plan_for_run(const std::vector<case_instance>& instances,
                         const std::vector<std::string>& extra_metrics, const std::string& chip) {
  worker_plan plan;
  plan.chip = chip;
  try {
    const metric_catalog& catalog = metric_catalog::builtin();
    const metric_name_validator validator(chip);
    raw_metric_name_check names(catalog, validator);
    for (const auto& instance : instances)
      names.check(instance);
    const worker_configurations planned = plan_for_instances(
        instances, extra_metrics, catalog,
        [&validator](const std::vector<std::string>& metrics) { return validator.pass_count(metrics); },
        configuration_sharing_from_environment());
    plan.configurations = planned.configurations();
    for (std::size_t i = 0; i < instances.size(); ++i)
      plan.configuration_of.push_back(planned.configuration_of(i));
  } catch (const input_error& e) {
    plan.problem = e.what();
  } catch (const std::exception&) {
    plan.planned = false;
  }
  return plan;
}

worker_plan plan_for_positions(const worker_plan& run, const std::vector<std::size_t>& positions) {
  worker_plan part;
  part.chip = run.chip;
  part.problem = run.problem;
  part.planned = run.planned;
  std::vector<int> number(run.configurations.size(), -1);
  std::vector<bool> used(run.configurations.size(), false);
  for (const std::size_t position : positions) {
    const int configuration = position < run.configuration_of.size() ? run.configuration_of[position] : -1;
    if (configuration >= 0)
      used[static_cast<std::size_t>(configuration)] = true;
  }
  for (std::size_t c = 0; c < run.configurations.size(); ++c) {
    if (!used[c])
      continue;
    number[c] = static_cast<int>(part.configurations.size());
    part.configurations.push_back(run.configurations[c]);
  }
  for (const std::size_t position : positions) {
    const int configuration = position < run.configuration_of.size() ? run.configuration_of[position] : -1;
    part.configuration_of.push_back(configuration < 0 ? -1 : number[static_cast<std::size_t>(configuration)]);
  }
  return part;
}

worker_configurations plan_for_instances(const std::vector<case_instance>& instances,
                                         const std::vector<std::string>& extra_metrics,
                                         const metric_catalog& catalog, const pass_counter& passes,
                                         configuration_sharing sharing) {
  std::vector<std::string> names;
  std::map<std::string, case_instance> by_name;
  for (const auto& instance : instances) {
    names.push_back(instance.name);
    by_name.emplace(instance.name, instance);
  }
  return worker_configurations(names, extra_metrics, by_name, catalog, passes, sharing);
}

std::vector<int> instance_configurations(const std::vector<case_instance>& instances,
                                         const std::vector<std::string>& extra_metrics,
                                         const metric_catalog& catalog, const pass_counter& passes,
                                         configuration_sharing sharing) {
  const worker_configurations planned =
      plan_for_instances(instances, extra_metrics, catalog, passes, sharing);
  std::vector<int> configurations(instances.size());
  for (std::size_t i = 0; i < instances.size(); ++i)
    configurations[i] = planned.configuration_of(i);
  return configurations;
}

std::vector<std::size_t> order_by_configuration(const std::vector<int>& configuration) {
  std::vector<std::size_t> order(configuration.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  // By configuration number (worker_configurations numbers them in the order to profile them); instances
  // without counters last.
  const auto rank = [](int c) { return c < 0 ? std::numeric_limits<int>::max() : c; };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return rank(configuration[a]) < rank(configuration[b]);
  });
  return order;
}

int worker_configurations::configuration_of(std::size_t position) const {
  if (position >= m_plan.configuration_of.size())
    throw internal_error("no profiler configuration planned for case position " + std::to_string(position));
  return m_plan.configuration_of[position];
}

const std::vector<std::string>& worker_configurations::raw_metrics(std::size_t position) const {
  static const std::vector<std::string> none;
  const int configuration = configuration_of(position);
  return configuration < 0 ? none
                           : m_plan.configurations[static_cast<std::size_t>(configuration)].raw_metrics;
}

}  // namespace counterguard
