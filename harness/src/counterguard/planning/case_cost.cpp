// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/case_cost.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace counterguard {

case_cost_table case_costs_of(const std::vector<run_results>& results) {
  case_cost_table table;
  for (const auto& run : results) {
    for (const auto& c : run.cases) {
      if (std::isfinite(c.seconds) && c.seconds > 0.0)
        table.seconds[c.instance] = c.seconds;
    }
  }
  return table;
}

case_cost_table read_case_costs(const std::vector<std::string>& results_files) {
  std::vector<run_results> results;
  results.reserve(results_files.size());
  for (const auto& file : results_files)
    results.push_back(load_run_results(file));
  return case_costs_of(results);
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
