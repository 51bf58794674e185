// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/profiler_configuration_plan.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

namespace counterguard {
namespace {

using metric_set = std::vector<std::string>;

metric_set normalized(metric_set metrics) {
  std::sort(metrics.begin(), metrics.end());
  metrics.erase(std::unique(metrics.begin(), metrics.end()), metrics.end());
  return metrics;
}

metric_set merged(const metric_set& a, const metric_set& b) {
  metric_set out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// Asks the pass counter once per distinct set.
class pass_cache {
 public:
  explicit pass_cache(const pass_counter& passes) : m_passes(passes) {}
  int operator()(const metric_set& metrics) {
    const auto found = m_known.find(metrics);
    if (found != m_known.end())
      return found->second;
    const int count = m_passes(metrics);
    m_known.emplace(metrics, count);
    return count;
  }

 private:
  const pass_counter& m_passes;
  std::map<metric_set, int> m_known;
};

struct group {
  metric_set metrics;
  int passes = 0;
  int bound = 0;  // the smallest allowed_passes of its members
};

}  // namespace

int allowed_passes(int own) {
  return std::max(2 * own, own + 2);
}

profiler_configuration_plan plan_profiler_configurations(const std::vector<metric_set>& metric_sets,
                                                         const pass_counter& passes,
                                                         const pass_bound& bound) {
  pass_cache count(passes);
  // The distinct sets, most demanding first (they bound their group the most), then by size and name.
  struct candidate {
    metric_set metrics;
    int passes = 0;
  };
  std::vector<candidate> distinct;
  {
    std::set<metric_set> seen;
    for (const auto& set : metric_sets) {
      metric_set metrics = normalized(set);
      if (!metrics.empty() && seen.insert(metrics).second)
        distinct.push_back({metrics, count(metrics)});
    }
  }
  std::sort(distinct.begin(), distinct.end(), [](const candidate& a, const candidate& b) {
    if (a.passes != b.passes)
      return a.passes > b.passes;
    if (a.metrics.size() != b.metrics.size())
      return a.metrics.size() > b.metrics.size();
    return a.metrics < b.metrics;
  });

  std::vector<group> groups;
  std::map<metric_set, int> group_of;
  // One configuration for everything when that stays within every set's bound (the usual case).
  if (!distinct.empty()) {
    group all;
    all.bound = bound(distinct.front().passes);
    for (const auto& c : distinct) {
      all.metrics = merged(all.metrics, c.metrics);
      all.bound = std::min(all.bound, bound(c.passes));
    }
    all.passes = count(all.metrics);
    if (all.passes <= all.bound) {
      for (const auto& c : distinct)
        group_of[c.metrics] = 0;
      groups.push_back(std::move(all));
    }
  }
  if (groups.empty()) {
    // Greedy: each set joins the group whose pass count it raises least, if no member's bound is exceeded.
    for (const auto& c : distinct) {
      const int own_bound = bound(c.passes);
      int best = -1;
      int best_growth = 0;
      metric_set best_metrics;
      int best_passes = 0;
      for (std::size_t g = 0; g < groups.size(); ++g) {
        metric_set together = merged(groups[g].metrics, c.metrics);
        const int together_passes = count(together);
        if (together_passes > std::min(groups[g].bound, own_bound))
          continue;
        const int growth = together_passes - groups[g].passes;
        if (best < 0 || growth < best_growth) {
          best = static_cast<int>(g);
          best_growth = growth;
          best_metrics = std::move(together);
          best_passes = together_passes;
        }
      }
      if (best < 0) {
        group_of[c.metrics] = static_cast<int>(groups.size());
        groups.push_back({c.metrics, c.passes, own_bound});
        continue;
      }
      group& chosen = groups[static_cast<std::size_t>(best)];
      chosen.metrics = std::move(best_metrics);
      chosen.passes = best_passes;
      chosen.bound = std::min(chosen.bound, own_bound);
      group_of[c.metrics] = best;
    }
  }

  profiler_configuration_plan plan;
  for (auto& g : groups)
    plan.configurations.push_back({std::move(g.metrics), g.passes});
  plan.configuration_of.reserve(metric_sets.size());
  for (const auto& set : metric_sets) {
    const metric_set metrics = normalized(set);
    plan.configuration_of.push_back(metrics.empty() ? -1 : group_of.at(metrics));
  }
  return plan;
}

}  // namespace counterguard
