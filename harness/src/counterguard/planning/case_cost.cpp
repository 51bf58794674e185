// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/case_cost.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace counterguard {

namespace {

// A time that can estimate a cost: finite and positive (an unmeasured case records null, a skipped one 0).
void add_recorded(case_cost_table& table, const std::string& instance, double seconds) {
  if (std::isfinite(seconds) && seconds > 0.0)
    table.seconds[instance] = seconds;
}

}  // namespace

case_cost_table case_costs_of(const std::vector<run_results>& results) {
  case_cost_table table;
  for (const auto& run : results) {
    for (const auto& c : run.cases)
      add_recorded(table, c.instance, c.seconds);
  }
  return table;
}

case_cost_table case_costs_of(const std::vector<recorded_seconds>& recorded) {
  case_cost_table table;
  for (const auto& [instance, seconds] : recorded)
    add_recorded(table, instance, seconds);
  return table;
}

std::vector<double> estimate_case_costs(const std::vector<case_instance>& instances,
                                        const case_cost_table& table) {
  std::vector<double> known;
  known.reserve(table.seconds.size());
  for (const auto& [name, seconds] : table.seconds)
    known.push_back(seconds);
  double fallback = 1.0;
  if (!known.empty()) {
    const auto middle = known.begin() + static_cast<std::ptrdiff_t>(known.size() / 2);
    std::nth_element(known.begin(), middle, known.end());
    fallback = *middle;
  }
  std::vector<double> costs;
  costs.reserve(instances.size());
  for (const auto& instance : instances) {
    if (instance.skip_reason) {
      costs.push_back(0.0);
      continue;
    }
    const auto found = table.seconds.find(instance.name);
    costs.push_back(found != table.seconds.end() ? found->second : fallback);
  }
  return costs;
}

std::vector<std::size_t> longest_first(const std::vector<double>& costs) {
  std::vector<std::size_t> order(costs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
  return order;
}

}  // namespace counterguard
