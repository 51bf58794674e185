// SPDX-License-Identifier: Apache-2.0
#include "counterguard/history/recorded_baseline_values.hpp"

#include <utility>

namespace counterguard {

earlier_values_source recorded_baseline_values(std::shared_ptr<const history_store> store,
                                               const std::string& gpu_key, std::size_t last_n,
                                               const std::vector<std::string>& own_content_hashes) {
  value_window window;
  window.last_n = last_n;
  for (const auto& hash : own_content_hashes) {
    if (const auto run = store->find_run_by_content(hash))
      window.excluded_runs.push_back(run->id);
  }
  return [store = std::move(store), gpu_key, window](const std::string& instance, const std::string& kernel,
                                                     const std::string& metric) {
    return store->recent_values(gpu_key, instance, kernel, metric, window);
  };
}

}  // namespace counterguard
