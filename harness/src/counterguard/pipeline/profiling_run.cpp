// SPDX-License-Identifier: Apache-2.0
// `counterguard run`: select and shard the cases, profile them in GPU worker processes, judge and report.
#include "counterguard/pipeline/profiling_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "counterguard/checker/run_verdict.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/interruption.hpp"
#include "counterguard/core/timeline.hpp"
#include "counterguard/measurement/recorded_run.hpp"
#include "counterguard/pipeline/run_identity.hpp"
#include "counterguard/pipeline/static_checks.hpp"
#include "counterguard/planning/shard_plan.hpp"
#include "counterguard/results/case_seconds.hpp"
#include "counterguard/runner/isolated_runner.hpp"
#include "counterguard/runner/regression_blame.hpp"
#include "detail/blame_guard.hpp"

namespace counterguard {
namespace {

// Without a GPU, `run` still does everything that needs none, and says plainly what it skipped and why.
run_results results_without_gpu(const std::vector<case_instance>& instances, const std::string& command_line,
                                const std::string& reason) {
  run_results results = static_results(instances, command_line);
  results.metadata.counters_not_run = "no GPU";
  const std::optional<unmeasured_counters> unmeasured = counters_not_checked(results);
  std::fputs(fmt::format("counterguard: no GPU profiling: {}\n"
                         "counterguard: {} (--require-gpu makes a missing GPU an error, exit status 3)\n",
                         reason, unmeasured ? describe_unmeasured(*unmeasured) : "no case expects a counter")
                 .c_str(),
             stderr);
  return results;
}

// The shard's instances profiled in GPU worker processes; --fail-fast stops them at the first failing case.
isolated_run_outcome profile_shard(const run_options& options, const shard_selection& part,
                                   const device_lookup& devices) {
  isolated_run_options run = worker_options(options.selection.paths, options.extra_metrics,
                                            options.case_timeout_seconds, options.wait_for_gpu_seconds);
  run.save_counter_data_dir = options.save_counter_data;
  run.echo_progress = !options.reports.quiet;
  std::optional<case_failure_detector> failures;
  if (options.reports.fail_fast) {
    failures.emplace(part.instances, options.reports);
    run.stop_after = [&failures](std::size_t index, const case_result& result,
                                 const device_description& device) {
      return failures->fails(index, result, device);
    };
  }
  isolated_run_outcome outcome =
      profile_instances(part.instances, part.costs, devices, run, options.selection.chip);
  timeline_mark("profiled");
  interruption_guard::throw_if_interrupted();  // no results at all rather than some
  return outcome;
}

// Source-line blame of the failed cases (docs/blame.md), in a process of its own on the run's first GPU.
void blame_failed_cases(run_results& results, const run_options& options, const std::vector<int>& devices) {
  regression_blame_options blame;
  blame.every_failure = options.blame_every_failure;
  blame.top = options.blame_top;
  blame.attribution.external_dirs = options.blame_external;
  if (!options.reports.no_baselines)
    blame.baseline_dir = options.reports.baseline_dir;
  sass_recording_options recording;
  recording.executable = self_executable();
  recording.suite_paths = options.selection.paths;
  recording.chip = options.selection.chip;
  recording.device = devices.empty() ? 0 : devices.front();
  recording.timeout_seconds = options.case_timeout_seconds * 4;
  detail::blame_without_costing_the_verdict([&] { return blame_regressions(results, blame, recording); },
                                            options.reports.quiet, " (--no-blame turns this off)");
}

}  // namespace

int run_cases(const run_options& options) {
  const device_lookup devices(options.devices);  // while the suites are read
  // The metric names are checked by the GPU worker while CUDA starts, or below when there is none.
  std::vector<case_instance> selected = load_instances(options.selection);
  if (selected.empty())
    throw input_error({}, "--filter", "no case instance matches '" + options.selection.filter + "'");
  timeline_mark("cases selected");
  const case_cost_table costs = case_costs_of(read_case_seconds(options.cost_from));
  const shard_selection part = select_shard(std::move(selected), options.shard, costs, options.reports.quiet);

  // What was profiled is saved, checked and blamed; results that were not (more shards than instances, no
  // GPU) compare with no baseline.
  std::optional<isolated_run_outcome> profiled;
  run_results results;
  if (part.instances.empty()) {
    // More shards than instances: this one has nothing to run, and says so in an empty results file.
    results.metadata = host_metadata("run", options.command_line);
  } else if (profiled = profile_shard(options, part, devices); profiled->environment) {
    // Names that no chip has are invalid input (exit status 2) whether or not a GPU is there.
    validate_raw_metric_names(part.instances, options.selection.chip);
    if (*profiled->environment != environment_problem::no_gpu || options.require_gpu)
      throw environment_error(*profiled->environment, profiled->environment_message);
    results = results_without_gpu(part.instances, options.command_line, profiled->environment_message);
    profiled.reset();
  } else {
    results.metadata = host_metadata("run", options.command_line);
    adopt_device(results.metadata, profiled->device);
    results.cases = std::move(profiled->results);
  }
  results.metadata.shard = part.shard;
  report_options reports = options.reports;
  std::function<void(run_results&)> blame;
  if (!profiled) {
    reports.no_baselines = true;
  } else {
    if (!options.save_counter_data.empty()) {
      // The run's metadata beside the per-case archives, so `evaluate` reproduces the same results file.
      save_recorded_run(options.save_counter_data, recorded_run{options.selection.paths, results});
    }
    check_all_expectations(results, part.instances);
    if (!options.no_blame) {
      blame = [&](run_results& judged) {
        const bool any_failed =
            std::any_of(judged.cases.begin(), judged.cases.end(),
                        [](const case_result& c) { return c.status == case_status::failed; });
        if (!any_failed)
          return;  // nothing to blame: the worker finishes exiting on its own
        // Blame profiles on the GPU again, under its lock.
        wait_for_exiting_worker(*profiled);
        blame_failed_cases(judged, options, devices.get().devices);
      };
    }
  }
  return judge_and_report(results, reports, blame);
}

}  // namespace counterguard
