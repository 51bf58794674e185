// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/pass_groups.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "counterguard/cupti/instrumented_counter.hpp"
#include "counterguard/cupti/profiler_host.hpp"

namespace counterguard {
namespace {

// First-fit over `counters` (in their order): each joins the first group it shares one pass with.
void add_first_fit(const std::vector<std::string>& counters, const std::string& chip,
                   std::vector<std::vector<std::string>>& groups) {
  if (counters.empty())
    return;
  if (configuration_passes(counters, chip) <= 1) {
    groups.push_back(counters);  // the common case: one host configuration decides it
    return;
  }
  const std::size_t first_group = groups.size();
  for (const auto& counter : counters) {
    bool placed = false;
    for (std::size_t g = first_group; g < groups.size() && !placed; ++g) {
      std::vector<std::string> candidate = groups[g];
      candidate.push_back(counter);
      if (configuration_passes(candidate, chip) <= 1) {
        groups[g] = std::move(candidate);
        placed = true;
      }
    }
    if (!placed)
      groups.push_back({counter});
  }
  for (std::size_t g = first_group; g < groups.size(); ++g)
    std::sort(groups[g].begin(), groups[g].end());
}

}  // namespace

int configuration_passes(const std::vector<std::string>& raw_metrics, const std::string& chip) {
  if (raw_metrics.empty())
    return 0;
  detail::profiler_host host(chip);
  host.add_metrics(raw_metrics);
  std::vector<std::uint8_t> image = host.config_image();
  return detail::config_pass_count(image);
}

pass_groups plan_pass_groups(const std::vector<std::string>& raw_metrics, const std::string& chip) {
  static std::mutex cache_mutex;
  static std::map<std::pair<std::string, std::vector<std::string>>, pass_groups> cache;
  const std::set<std::string> unique(raw_metrics.begin(), raw_metrics.end());
  auto key = std::make_pair(chip, std::vector<std::string>(unique.begin(), unique.end()));
  {
    const std::lock_guard<std::mutex> lock(cache_mutex);
    if (const auto found = cache.find(key); found != cache.end())
      return found->second;
  }
  std::vector<std::string> hardware;
  std::vector<std::string> instrumented;
  for (const auto& name : key.second)
    (is_instrumented_counter(name) ? instrumented : hardware).push_back(name);
  pass_groups plan;
  add_first_fit(hardware, chip, plan.groups);
  add_first_fit(instrumented, chip, plan.groups);
  plan.kernel_replay_passes = configuration_passes(key.second, chip);
  const std::lock_guard<std::mutex> lock(cache_mutex);
  return cache.emplace(std::move(key), std::move(plan)).first->second;
}

std::vector<std::string> counters_of_groups(const pass_groups& plan, int first, int count) {
  std::set<std::string> counters;
  const int groups = static_cast<int>(plan.groups.size());
  const int last = count <= 0 ? groups : std::min(groups, first + count);
  for (int g = std::max(0, first); g < last; ++g)
    counters.insert(plan.groups[static_cast<std::size_t>(g)].begin(),
                    plan.groups[static_cast<std::size_t>(g)].end());
  return {counters.begin(), counters.end()};
}

}  // namespace counterguard
