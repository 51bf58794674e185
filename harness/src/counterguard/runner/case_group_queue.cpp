// SPDX-License-Identifier: Apache-2.0
#include "counterguard/runner/case_group_queue.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "counterguard/core/error.hpp"
#include "counterguard/planning/case_cost.hpp"
#include "counterguard/planning/worker_configurations.hpp"

namespace counterguard {

case_group_queue::case_group_queue(const std::vector<case_instance>& instances,
                                   const std::vector<double>& costs, const std::vector<int>& configurations)
    : m_group_of(instances.size()) {
  if (costs.size() != instances.size())
    throw internal_error("case_group_queue: one cost per instance");
  if (!configurations.empty() && configurations.size() != instances.size())
    throw internal_error("case_group_queue: one configuration per instance");
  // Groups in the order their first instance comes: a configuration, or a case (its suite file and name).
  std::map<std::pair<std::string, std::string>, std::size_t> group_index;
  std::vector<std::vector<std::size_t>> members;
  std::vector<double> group_costs;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const auto key =
        configurations.empty()
            ? std::make_pair(instances[i].suite_path + "\n" + instances[i].suite, instances[i].case_name)
            : std::make_pair(std::string("configuration"), std::to_string(configurations[i]));
    const auto [found, added] = group_index.emplace(key, members.size());
    if (added) {
      members.emplace_back();
      group_costs.push_back(0.0);
    }
    m_group_of[i] = found->second;
    members[found->second].push_back(i);
    group_costs[found->second] += costs[i];
  }
  // Configurations in the order one GPU's worker takes them (order_by_configuration: those without
  // instrumented counters first, instances without counters last): a worker then never goes back from
  // instrumented to hardware counters, which restarts its profiling session (about 0.1 s on the H200), and a
  // noisy hardware counter is read after the same history with --devices as without (validation/h200.md:
  // achieved_occupancy of occupancy/block_768 read 58.6-59.4 after the instrumented configuration, 62.2-62.4
  // before it). Cases without configurations: the most expensive first.
  std::vector<std::size_t> order;
  if (configurations.empty()) {
    order = longest_first(group_costs);
  } else {
    std::vector<int> group_configuration(members.size());
    for (std::size_t group = 0; group < members.size(); ++group)
      group_configuration[group] = configurations[members[group].front()];
    order = order_by_configuration(group_configuration);
  }
  for (const std::size_t group : order) {
    for (const std::size_t position : members[group])
      m_queue.push_back(position);
  }
}

bool case_group_queue::holds(std::size_t group) const {
  return std::any_of(m_queue.begin(), m_queue.end(), [&](std::size_t p) { return m_group_of[p] == group; });
}

std::optional<std::size_t> case_group_queue::take(const std::optional<std::size_t>& last_group,
                                                  const std::vector<std::size_t>& busy_groups) {
  if (m_queue.empty())
    return std::nullopt;
  const auto is = [&](std::size_t group) {
    return [this, group](std::size_t p) { return m_group_of[p] == group; };
  };
  auto chosen = m_queue.end();
  if (last_group)
    chosen = std::find_if(m_queue.begin(), m_queue.end(), is(*last_group));
  if (chosen == m_queue.end()) {
    chosen = std::find_if(m_queue.begin(), m_queue.end(), [&](std::size_t p) {
      return std::find(busy_groups.begin(), busy_groups.end(), m_group_of[p]) == busy_groups.end();
    });
  }
  if (chosen == m_queue.end())
    chosen = std::prev(m_queue.end());  // every case left is another's: help from the end rather than idle
  const std::size_t position = *chosen;
  m_queue.erase(chosen);
  return position;
}

}  // namespace counterguard
