#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "commands.hpp"
#include "counterguard/baselines/atomic_file.hpp"
#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/baselines/baseline_update.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/runner/isolated_runner.hpp"

namespace counterguard::detail {

int run_baseline_update(const baseline_update_options& options) {
  const std::vector<case_instance> instances = select_instances(options.selection);
  if (instances.empty())
    throw input_error({}, "--filter", "no case instance matches '" + options.selection.filter + "'");

  // All repetitions go to one worker process (CUPTI set up once), case after case, N times over.
  std::vector<case_instance> repeated;
  repeated.reserve(instances.size() * static_cast<std::size_t>(options.repeat));
  for (int r = 0; r < options.repeat; ++r)
    repeated.insert(repeated.end(), instances.begin(), instances.end());
  isolated_run_options run;
  run.executable = self_executable();
  run.suite_paths = options.selection.paths;
  run.extra_metrics = options.extra_metrics;
  run.device = options.device;
  run.case_timeout_seconds = options.case_timeout_seconds;
  const isolated_run_outcome outcome = run_isolated(repeated, run);
  if (outcome.environment)
    throw environment_error(*outcome.environment, outcome.environment_message);

  std::vector<run_results> repetitions(static_cast<std::size_t>(options.repeat));
  for (std::size_t r = 0; r < repetitions.size(); ++r) {
    run_results& repetition = repetitions[r];
    repetition.metadata = host_metadata("baseline", options.command_line);
    adopt_device(repetition.metadata, outcome.device);
    for (std::size_t i = 0; i < instances.size(); ++i) {
      repetition.cases.push_back(outcome.results.at(r * instances.size() + i));
    }
  }

  std::set<std::string> suites;
  for (const auto& instance : instances)
    suites.insert(instance.suite);
  const std::string gpu_key = repetitions.front().metadata.gpu_key;
  std::string summary;
  for (const auto& suite : suites) {
    const std::string path = baseline_path(options.baseline_dir, gpu_key, suite);
    const baseline_update_result update =
        update_baseline(load_baseline_file(path), suite, repetitions, catalog_metric_traits, path);
    if (!update.measured.empty()) {
      std::filesystem::create_directories(std::filesystem::path(path).parent_path());  // a new GPU key
      save_baseline_file(path, update.file);
    }
    summary += render_change_summary_markdown(update) + "\n";
    for (const auto& why : update.not_recorded) {
      std::fputs(fmt::format("counterguard: not recorded: {}\n", why).c_str(), stderr);
    }
  }
  std::fputs(summary.c_str(), stdout);
  if (!options.summary.empty())
    write_file_atomically(options.summary, summary);
  // After the baselines are saved: a history that cannot be written does not cost the refresh.
  for (std::size_t r = 0; r < repetitions.size() && !options.history.empty(); ++r) {
    const std::string repetition = std::to_string(r + 1) + "/" + std::to_string(repetitions.size());
    record_into_history(options.history, repetitions[r],
                        "counterguard baseline update, repetition " + repetition, "repetition " + repetition);
  }
  return 0;
}

}  // namespace counterguard::detail
