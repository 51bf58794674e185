// SPDX-License-Identifier: Apache-2.0
// `counterguard evaluate DIR`: a recording measured again without a GPU, judged and reported as the run was.
#include "counterguard/pipeline/recording_evaluation.hpp"

#include <algorithm>
#include <set>

#include "counterguard/core/error.hpp"
#include "counterguard/core/input_errors.hpp"
#include "counterguard/exec/exec_envelope.hpp"
#include "counterguard/exec/exec_recording.hpp"
#include "counterguard/measurement/recorded_run.hpp"
#include "counterguard/pipeline/exec_run.hpp"
#include "counterguard/pipeline/run_identity.hpp"
#include "counterguard/planning/shard_plan.hpp"
#include "counterguard/results/case_seconds.hpp"
#include "counterguard/runner/regression_blame.hpp"

namespace counterguard {

namespace {

// The selected instances of the suites (those the recording names unless the command line names others).
std::vector<case_instance> recorded_instances(const evaluate_options& options, const recorded_run& recording,
                                              const std::string& recording_file) {
  try {
    return select_instances(recorded_selection(options.selection, recording.suite_paths,
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
}

[[noreturn]] void throw_nothing_recorded(const std::filesystem::path& directory) {
  throw input_error(
      {(directory / "run.json").string()}, "results.cases",
      "none of the selected case instances was recorded in this directory",
      "select recorded cases (--filter) or record them with `counterguard run --save-counter-data`");
}

// evaluate --blame-from: the failed cases blamed from profiles recorded on the GPU, against the per-line
// baselines as run blames them.
void blame_from_recorded_profiles(run_results& results, const evaluate_options& options,
                                  const recorded_sass_profiles& recorded) {
  regression_blame_options blame;
  blame.top = options.blame_top;
  blame.attribution.external_dirs = options.blame_external;
  if (!options.reports.no_baselines)
    blame.baseline_dir = options.reports.baseline_dir;
  blame_regressions(results, blame, recorded);
}

}  // namespace

run_results evaluate_recording_results(const evaluate_options& options) {
  const std::filesystem::path directory(options.directory);
  if (is_exec_recording(directory))
    return evaluate_exec_recording_results(options);
  const recorded_run recording = load_recorded_run(directory);
  const std::vector<case_instance> instances =
      recorded_instances(options, recording, (directory / "run.json").string());
  std::vector<case_instance> evaluated;
  run_results results = evaluate_recording(directory, recording, instances, evaluated);
  if (evaluated.empty())
    throw_nothing_recorded(directory);
  results.metadata.mode = "evaluate";
  results.metadata.command_line = options.command_line;
  check_all_expectations(results, evaluated);
  return results;
}

int evaluate_recording_directory(const evaluate_options& options) {
  const std::filesystem::path directory(options.directory);
  if (is_exec_recording(directory))
    return evaluate_exec_recording_directory(options);
  // Read first: a --blame-from that cannot be read is refused before anything is evaluated.
  recorded_sass_profiles profiles;
  if (!options.blame_from.empty()) {
    profiles = load_sass_profiles(options.blame_from,
                                  options.blame_binary.empty() ? self_executable() : options.blame_binary);
    profiles.problem = options.blame_from + " (--blame-from) has no profile of this case";
  }
  const recorded_run recording = load_recorded_run(directory);
  std::vector<case_instance> instances =
      recorded_instances(options, recording, (directory / "run.json").string());
  std::optional<shard_record> shard;
  if (!options.shard.empty()) {
    // Shards of the instances this recording can evaluate, balanced by the recorded per-case seconds.
    std::set<std::string> recorded;
    for (const auto& c : recording.results.cases)
      recorded.insert(c.instance);
    instances.erase(std::remove_if(instances.begin(), instances.end(),
                                   [&](const case_instance& i) { return recorded.count(i.name) == 0; }),
                    instances.end());
    const case_cost_table costs = options.cost_from.empty()
                                      ? case_costs_of({recording.results})
                                      : case_costs_of(read_case_seconds(options.cost_from));
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
  if (evaluated.empty())
    throw_nothing_recorded(directory);
  results.metadata.mode = "evaluate";
  results.metadata.command_line = options.command_line;
  check_all_expectations(results, evaluated);
  return judge_and_report(results, options.reports, [&](run_results& judged) {
    if (options.reports.fail_fast)
      skip_after_first_failure(judged);
    if (!options.blame_from.empty())
      blame_from_recorded_profiles(judged, options, profiles);
  });
}

}  // namespace counterguard
