// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_directory_update.hpp"

#include <optional>
#include <utility>

#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/core/interruption.hpp"

namespace counterguard {

std::vector<suite_baseline_update> update_baseline_directory(const std::string& directory,
                                                             const std::string& gpu_key,
                                                             const std::set<std::string>& suites,
                                                             const std::vector<run_results>& repetitions,
                                                             const baseline_refresh_options& options) {
  std::vector<suite_baseline_update> updates;
  for (const auto& suite : suites) {
    suite_baseline_update& done = updates.emplace_back();
    done.path = baseline_path(directory, gpu_key, suite);
    const std::optional<baseline_file> existing = load_baseline_file(done.path);
    done.update = update_baseline(existing, suite, repetitions, catalog_metric_traits, options, done.path);
    done.written = !done.update.measured.empty() && (!existing || !done.update.changes.empty());
  }
  interruption_guard::throw_if_interrupted();
  for (const auto& done : updates) {
    if (done.written)
      save_baseline_file(done.path, done.update.file);
  }
  return updates;
}

}  // namespace counterguard
