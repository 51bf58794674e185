// SPDX-License-Identifier: Apache-2.0
// `counterguard evaluate DIR`: a recording measured again without a GPU, judged and reported as the run was.
#include "counterguard/pipeline/recording_evaluation.hpp"

#include <algorithm>
#include <set>

#include "counterguard/core/error.hpp"
#include "counterguard/core/input_errors.hpp"
#include "counterguard/exec/exec_recording.hpp"
#include "counterguard/measurement/recorded_run.hpp"
#include "counterguard/pipeline/exec_run.hpp"

namespace counterguard {

int evaluate_recording_directory(const evaluate_options& options) {
  const std::filesystem::path directory(options.directory);
  if (is_exec_recording(directory))
    return evaluate_exec_recording_directory(options);
  const recorded_run recording = load_recorded_run(directory);
  const std::string recording_file = (directory / "run.json").string();
  std::vector<case_instance> instances;
  try {
    instances = select_instances(recorded_selection(options.selection, recording.suite_paths,
                                                    recording.results.metadata, recording_file));
  } catch (const input_error_list&) {
    throw;  // several problems, each naming its own file
  } catch (const input_error& e) {
    if (!options.selection.paths.empty() || e.where().file == recording_file)
      throw;
    // The suites come from the recording: say which file named them.
    throw input_error(e.where(), e.field(),
                      e.problem() + " (a suite named by suite_paths of " + recording_file + ")", e.valid());
  }
  std::optional<shard_record> shard;
  if (!options.shard.empty()) {
    // Shards of the instances this recording can evaluate, balanced by the recorded per-case seconds.
    std::set<std::string> recorded;
    for (const auto& c : recording.results.cases)
      recorded.insert(c.instance);
    instances.erase(std::remove_if(instances.begin(), instances.end(),
                                   [&](const case_instance& i) { return recorded.count(i.name) == 0; }),
                    instances.end());
    const case_cost_table costs =
        options.cost_from.empty() ? case_costs_of({recording.results}) : read_case_costs(options.cost_from);
    shard_selection part = select_shard(std::move(instances), options.shard, costs, options.reports.quiet);
    instances = std::move(part.instances);
    shard = std::move(part.shard);
  }

  std::vector<case_instance> evaluated;  // the selected instances the recording has, in suite order
  run_results results = evaluate_recording(directory, recording, instances, evaluated);
  // A recording made with --shard and evaluated whole keeps its shard record, so evaluated shards merge too.
  if (shard || evaluated.size() != recording.results.cases.size())
    results.metadata.shard = shard;
  if (evaluated.empty() && shard && shard->total_instances > 0) {
    // More shards than instances: this one has nothing to evaluate, and says so in an empty results file.
    results.metadata.mode = "evaluate";
    results.metadata.command_line = options.command_line;
    report_options reports = options.reports;
    reports.no_baselines = true;
    return judge_and_report(results, reports);
  }
  if (evaluated.empty()) {
    throw input_error(
        {(directory / "run.json").string()}, "results.cases",
        "none of the selected case instances was recorded in this directory",
        "select recorded cases (--filter) or record them with `counterguard run --save-counter-data`");
  }
  results.metadata.mode = "evaluate";
  results.metadata.command_line = options.command_line;
  check_all_expectations(results, evaluated);
  if (!options.reports.fail_fast)
    return judge_and_report(results, options.reports);
  return judge_and_report(results, options.reports, skip_after_first_failure);
}

}  // namespace counterguard
