// SPDX-License-Identifier: Apache-2.0
// `counterguard baseline update` (measure N times, merge into the per-GPU baselines) and `baseline diff`.
#include "counterguard/pipeline/baseline_refresh.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "counterguard/baselines/baseline_change_summary.hpp"
#include "counterguard/baselines/baseline_directory_diff.hpp"
#include "counterguard/baselines/baseline_directory_update.hpp"
#include "counterguard/baselines/baseline_file.hpp"
#include "counterguard/baselines/baseline_update.hpp"
#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/interruption.hpp"
#include "counterguard/history/history_source.hpp"
#include "counterguard/history/recorded_baseline_values.hpp"
#include "counterguard/pipeline/judgement.hpp"
#include "counterguard/pipeline/run_identity.hpp"
#include "counterguard/runner/isolated_runner.hpp"
#include "counterguard/runner/line_baseline_refresh.hpp"

namespace counterguard {

std::string full_summary_path(const std::string& summary) {
  const std::string suffix = ".md";
  if (summary.size() > suffix.size() &&
      summary.compare(summary.size() - suffix.size(), suffix.size(), suffix) == 0)
    return summary.substr(0, summary.size() - suffix.size()) + ".full.md";
  return summary + ".full.md";
}

int update_baselines(const baseline_update_options& options) {
  const device_lookup devices(options.devices);  // while the suites are read
  const std::vector<case_instance> instances = select_instances(options.selection);
  if (instances.empty())
    throw input_error({}, "--filter", "no case instance matches '" + options.selection.filter + "'");

  // All repetitions go to one worker process per GPU (CUPTI set up once), case after case, N times over.
  std::vector<case_instance> repeated;
  repeated.reserve(instances.size() * static_cast<std::size_t>(options.repeat));
  for (int r = 0; r < options.repeat; ++r)
    repeated.insert(repeated.end(), instances.begin(), instances.end());
  const isolated_run_options run = worker_options(options.selection.paths, options.extra_metrics,
                                                  options.case_timeout_seconds, options.wait_for_gpu_seconds);
  isolated_run_outcome outcome =
      profile_instances(repeated, estimate_case_costs(repeated, read_case_costs(options.cost_from)), devices,
                        run, options.selection.chip);
  wait_for_exiting_worker(outcome);  // the line baselines below profile on the GPU again
  interruption_guard::throw_if_interrupted();
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
  // What tells the repetitions apart in the history (their results may be identical).
  std::vector<std::string> distinguishers;
  for (std::size_t r = 0; r < repetitions.size(); ++r)
    distinguishers.push_back("repetition " + std::to_string(r + 1) + "/" +
                             std::to_string(repetitions.size()));
  baseline_refresh_options refresh;
  refresh.keep_entries_inside_band = !options.replace_all;
  if (options.from_history > 0) {
    // The repetitions are recorded after the baselines are written; should they be in the history already
    // (the same results recorded before), their hashes keep them from counting twice.
    std::vector<std::string> own;
    for (std::size_t r = 0; r < repetitions.size(); ++r)
      own.push_back(results_content_hash(repetitions[r], distinguishers[r]));
    refresh.earlier_values = recorded_baseline_values(std::make_shared<const history_store>(options.history),
                                                      gpu_key, options.from_history, own);
  }
  std::vector<baseline_update_result> results;
  for (const suite_baseline_update& suite :
       update_baseline_directory(options.baseline_dir, gpu_key, suites, repetitions, refresh)) {
    for (const auto& why : suite.update.not_recorded)
      std::fputs(fmt::format("counterguard: not recorded: {}\n", why).c_str(), stderr);
    results.push_back(suite.update);
  }
  if (options.with_lines) {
    // After the baselines: the per-line profiles come from a process of their own (SASS metrics).
    sass_recording_options recording;
    recording.executable = self_executable();
    recording.suite_paths = options.selection.paths;
    recording.chip = options.selection.chip;
    const std::vector<int>& chosen = devices.get().devices;
    recording.device = chosen.empty() ? 0 : chosen.front();
    recording.timeout_seconds = options.case_timeout_seconds * 4;
    line_attribution attribution;
    attribution.external_dirs = options.blame_external;
    const line_baseline_refresh lines =
        refresh_line_baselines(repetitions.front(), options.baseline_dir, recording, attribution);
    for (const auto& why : lines.not_recorded)
      std::fputs(fmt::format("counterguard: no per-line profile: {}\n", why).c_str(), stderr);
    for (const auto& path : lines.written)
      std::fputs(fmt::format("counterguard: wrote per-line profiles {}\n", path).c_str(), stderr);
    for (const auto& stale : lines.keyed_otherwise) {
      std::fputs(fmt::format("counterguard: per-line profile keyed the old way (not measured this time; run "
                             "compares with it that way until it is): {}\n",
                             stale)
                     .c_str(),
                 stderr);
    }
  }
  // The console gets everything; the --summary file (a pull-request body) stays within its limit.
  const std::string summary = render_change_summaries_markdown(results, markdown_budget{0, {}});
  std::fputs(summary.c_str(), stdout);
  if (!options.summary.empty()) {
    const std::string full_path = full_summary_path(options.summary);
    const std::string bounded =
        render_change_summaries_markdown(results, markdown_budget{options.summary_limit, full_path});
    write_file_atomically(options.summary, bounded);
    if (bounded != summary)
      write_file_atomically(full_path, summary);
  }
  // After the baselines are saved: a history that cannot be written does not cost the refresh.
  for (std::size_t r = 0; r < repetitions.size() && !options.history.empty(); ++r) {
    record_into_history(options.history, repetitions[r], "counterguard baseline update, " + distinguishers[r],
                        distinguishers[r]);
  }
  return 0;
}

int diff_baselines(const baseline_diff_options& options) {
  const std::vector<baseline_file_diff> diffs =
      diff_baseline_directories(options.old_directory, options.new_directory);
  std::size_t changes = 0;
  for (const auto& diff : diffs)
    changes += diff.changes.size();
  const std::string complete = render_baseline_diff_markdown(diffs, markdown_budget{0, {}});
  if (!options.quiet)
    std::fputs(complete.c_str(), stdout);
  if (!options.summary.empty()) {
    const std::string full_path = full_summary_path(options.summary);
    const std::string bounded =
        render_baseline_diff_markdown(diffs, markdown_budget{options.summary_limit, full_path});
    write_file_atomically(options.summary, bounded);
    if (bounded != complete)
      write_file_atomically(full_path, complete);
  }
  std::fputs(
      fmt::format("counterguard: {} baseline entr{} changed in {} file(s) between {} and {}\n", changes,
                  changes == 1 ? "y" : "ies", diffs.size(), options.old_directory, options.new_directory)
          .c_str(),
      stderr);
  return diffs.empty() ? 0 : 1;
}

}  // namespace counterguard
