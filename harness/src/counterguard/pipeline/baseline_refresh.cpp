// SPDX-License-Identifier: Apache-2.0
// `counterguard baseline update` (measure N times, merge into the per-GPU baselines) and `baseline diff`.
#include "counterguard/pipeline/baseline_refresh.hpp"

#include <fmt/format.h>

#include <algorithm>
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
#include "counterguard/pipeline/exec_blame.hpp"
#include "counterguard/pipeline/exec_run.hpp"
#include "counterguard/pipeline/judgement.hpp"
#include "counterguard/pipeline/recording_evaluation.hpp"
#include "counterguard/pipeline/run_identity.hpp"
#include "counterguard/planning/shard_plan.hpp"
#include "counterguard/results/case_seconds.hpp"
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

namespace {

// The runs a refresh merges, one per repetition, with what tells them apart in the history.
struct refresh_repetitions {
  std::vector<run_results> runs;
  std::vector<std::string> labels;                  // "repetition 1/5", "recording DIR"
  std::set<std::string> suites;                     // the suites whose baseline files the refresh updates
  std::vector<exec_case_request> program_requests;  // a program's: what its injection was asked for
};

std::vector<std::string> repetition_labels(std::size_t count) {
  std::vector<std::string> labels;
  for (std::size_t r = 0; r < count; ++r)
    labels.push_back("repetition " + std::to_string(r + 1) + "/" + std::to_string(count));
  return labels;
}

// The suites of every case the runs hold, but the program's own case and the command line's (`exec`'s
// suite "exec": they have no baselines).
std::set<std::string> suites_of(const std::vector<run_results>& runs) {
  std::set<std::string> suites;
  for (const auto& run : runs) {
    for (const auto& result : run.cases) {
      if (result.suite != "exec")
        suites.insert(result.suite);
    }
  }
  return suites;
}

// The registered cases measured N times by the GPU workers (`outcome` keeps the workers' device).
refresh_repetitions live_repetitions(const baseline_update_options& options, const device_lookup& devices) {
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
  isolated_run_outcome outcome = profile_instances(
      repeated, estimate_case_costs(repeated, case_costs_of(read_case_seconds(options.cost_from))), devices,
      run, options.selection.chip);
  wait_for_exiting_worker(outcome);  // the line baselines profile on the GPU again
  interruption_guard::throw_if_interrupted();
  if (outcome.environment)
    throw environment_error(*outcome.environment, outcome.environment_message);

  refresh_repetitions repetitions;
  repetitions.runs.resize(static_cast<std::size_t>(options.repeat));
  for (std::size_t r = 0; r < repetitions.runs.size(); ++r) {
    run_results& repetition = repetitions.runs[r];
    repetition.metadata = host_metadata("baseline", options.command_line);
    adopt_device(repetition.metadata, outcome.device);
    for (std::size_t i = 0; i < instances.size(); ++i) {
      repetition.cases.push_back(outcome.results.at(r * instances.size() + i));
    }
  }
  for (const auto& instance : instances)
    repetitions.suites.insert(instance.suite);
  repetitions.labels = repetition_labels(repetitions.runs.size());
  return repetitions;
}

// Each recording measured again without a GPU, as `evaluate DIR` measures it: one repetition each.
refresh_repetitions recorded_repetitions(const baseline_update_options& options) {
  refresh_repetitions repetitions;
  for (const auto& directory : options.from_recordings) {
    evaluate_options evaluate;
    evaluate.directory = directory;
    evaluate.selection = options.selection;
    evaluate.command_line = options.command_line;
    run_results run = evaluate_recording_results(evaluate);
    run.metadata.mode = "baseline";
    if (!repetitions.runs.empty() && run.metadata.gpu_key != repetitions.runs.front().metadata.gpu_key) {
      throw input_error({directory}, "metadata.gpu_key",
                        "was recorded on GPU key '" + run.metadata.gpu_key + "', " +
                            options.from_recordings.front() + " on '" +
                            repetitions.runs.front().metadata.gpu_key + "'",
                        "merge recordings of one kind of GPU into one refresh (a baseline file belongs to "
                        "one GPU key)");
    }
    repetitions.runs.push_back(std::move(run));
    repetitions.labels.push_back("recording " + directory);
  }
  repetitions.suites = suites_of(repetitions.runs);
  return repetitions;
}

// How `exec` runs the program of `baseline update SUITE... -- PROGRAM`.
exec_options program_exec_options(const baseline_update_options& options) {
  exec_options exec;
  exec.selection = options.selection;
  exec.selection.allow_program_cases = true;
  exec.reports.quiet = true;
  exec.extra_metrics = options.extra_metrics;
  exec.binaries = options.binaries;
  exec.program = options.program;
  exec.timeout_seconds = options.program_timeout_seconds;
  exec.wait_for_gpu_seconds = options.wait_for_gpu_seconds;
  exec.allow_program_failure = options.allow_program_failure;
  exec.replay = options.replay;
  exec.command_line = options.command_line;
  return exec;
}

// The program run N times under `exec`'s injection; nullopt (a message said why) when a repetition failed.
std::optional<refresh_repetitions> program_repetitions(const baseline_update_options& options) {
  const exec_options exec = program_exec_options(options);
  refresh_repetitions repetitions;
  repetitions.labels = repetition_labels(static_cast<std::size_t>(options.repeat));
  for (std::size_t r = 0; r < repetitions.labels.size(); ++r) {
    exec_measurement measured = measure_program(exec);
    interruption_guard::throw_if_interrupted();
    const case_result& program = measured.results.cases.front();  // exec/program
    std::size_t profiled = 0;
    for (const auto& result : measured.results.cases)
      profiled += result.kernels.size();
    const std::string outcome = program.checks.empty() ? std::string() : program.checks.front().message;
    std::fputs(fmt::format("counterguard: {}: {}; {} launch(es) measured\n", repetitions.labels[r], outcome,
                           profiled)
                   .c_str(),
               stderr);
    if (program.status == case_status::failed) {
      std::fputs(fmt::format("counterguard: no baselines written: the program failed in {} ({}); "
                             "--allow-program-failure records what it measured anyway\n",
                             repetitions.labels[r], outcome)
                     .c_str(),
                 stderr);
      return std::nullopt;
    }
    measured.results.metadata.mode = "baseline";
    repetitions.runs.push_back(std::move(measured.results));
    repetitions.program_requests = std::move(measured.requests);
  }
  repetitions.suites = suites_of(repetitions.runs);
  return repetitions;
}

}  // namespace

int update_baselines(const baseline_update_options& options) {
  if (!options.from_recordings.empty() && !options.program.empty()) {
    throw input_error({}, "--from-recording",
                      "both recordings and a program are given: a refresh merges one or the other",
                      "drop the program after '--', or --from-recording");
  }
  if (options.with_lines && !options.from_recordings.empty()) {
    throw input_error({}, "--with-lines", "per-line profiles are measured on a GPU, a recording has none",
                      "record per-line baselines with `baseline update --with-lines` (without "
                      "--from-recording), of registered cases or of a program after '--'");
  }
  std::optional<device_lookup> devices;
  refresh_repetitions repetitions;
  if (!options.from_recordings.empty()) {
    repetitions = recorded_repetitions(options);
  } else if (!options.program.empty()) {
    std::optional<refresh_repetitions> measured = program_repetitions(options);
    if (!measured)
      return static_cast<int>(exit_code::check_failed);
    repetitions = std::move(*measured);
  } else {
    devices.emplace(options.devices);  // while the suites are read
    repetitions = live_repetitions(options, *devices);
  }

  // Whether the runs are a program's (`exec`, live or recorded), whose kernels nobody prepared.
  const bool of_programs =
      std::any_of(repetitions.runs.begin(), repetitions.runs.end(), [](const run_results& run) {
        return std::any_of(run.cases.begin(), run.cases.end(),
                           [](const case_result& c) { return c.instance == "exec/program"; });
      });
  const std::string gpu_key = repetitions.runs.front().metadata.gpu_key;
  const std::vector<std::string>& distinguishers = repetitions.labels;
  baseline_refresh_options refresh;
  refresh.keep_entries_inside_band = !options.replace_all;
  // A program's kernels may vary between identical runs: recorded as noisy rather than failing at random.
  refresh.varying_exact_as_noisy = of_programs;
  if (options.from_history > 0) {
    // The repetitions are recorded after the baselines are written; should they be in the history already
    // (the same results recorded before), their hashes keep them from counting twice.
    std::vector<std::string> own;
    for (std::size_t r = 0; r < repetitions.runs.size(); ++r)
      own.push_back(results_content_hash(repetitions.runs[r], distinguishers[r]));
    refresh.earlier_values = recorded_baseline_values(std::make_shared<const history_store>(options.history),
                                                      gpu_key, options.from_history, own);
  }
  std::vector<baseline_update_result> results;
  for (const suite_baseline_update& suite : update_baseline_directory(
           options.baseline_dir, gpu_key, repetitions.suites, repetitions.runs, refresh)) {
    for (const auto& why : suite.update.not_recorded)
      std::fputs(fmt::format("counterguard: not recorded: {}\n", why).c_str(), stderr);
    for (const auto& varied : suite.update.recorded_as_noisy)
      std::fputs(
          fmt::format("counterguard: recorded as noisy (varied between repetitions): {}\n", varied).c_str(),
          stderr);
    results.push_back(suite.update);
  }
  if (options.with_lines) {
    // After the baselines: the per-line profiles come from processes of their own (SASS metrics).
    line_attribution attribution;
    attribution.external_dirs = options.blame_external;
    line_baseline_refresh lines;
    if (!options.program.empty()) {
      // The program runs again per case, its selected launch's per-instruction counters collected.
      const program_sass_profiles profiles =
          record_program_sass_profiles(program_exec_options(options), repetitions.program_requests,
                                       line_baseline_instances(repetitions.runs.front()));
      lines = refresh_line_baselines(repetitions.runs.front(), options.baseline_dir, profiles.recorded,
                                     attribution);
    } else {
      sass_recording_options recording;
      recording.executable = self_executable();
      recording.suite_paths = options.selection.paths;
      recording.chip = options.selection.chip;
      const std::vector<int>& chosen = devices->get().devices;
      recording.device = chosen.empty() ? 0 : chosen.front();
      recording.timeout_seconds = options.case_timeout_seconds * 4;
      lines = refresh_line_baselines(repetitions.runs.front(), options.baseline_dir, recording, attribution);
    }
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
  for (std::size_t r = 0; r < repetitions.runs.size() && !options.history.empty(); ++r) {
    record_into_history(options.history, repetitions.runs[r],
                        "counterguard baseline update, " + distinguishers[r], distinguishers[r]);
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
