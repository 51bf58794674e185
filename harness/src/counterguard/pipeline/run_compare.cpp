// SPDX-License-Identifier: Apache-2.0
// `counterguard compare A B`: two runs side by side, metric by metric (docs/history.md).
#include "counterguard/pipeline/run_compare.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "counterguard/core/error.hpp"
#include "counterguard/history/comparison_report.hpp"
#include "counterguard/history/history_source.hpp"
#include "counterguard/history/history_store.hpp"
#include "counterguard/history/run_comparison.hpp"
#include "counterguard/reporters/report_output.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {
namespace {

bool all_of(const std::string& text, int (*predicate)(int)) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [&](unsigned char c) { return predicate(c) != 0; });
}

comparison_side side_from_run(const history_store& store, const run_record& run) {
  comparison_side side;
  side.label = "run " + std::to_string(run.id);
  side.history_run_id = run.id;
  side.values = store.load_values(run.id);
  return side;
}

// A run named on the command line: "run:ID", a run id, or the start of a git commit (the latest run of it).
comparison_side side_from_history(const history_store& store, const std::string& name,
                                  const std::string& gpu_key) {
  const std::string valid =
      "give a results JSON file, run:ID, a run id or the start of a commit "
      "(`counterguard history list` shows them)";
  if (name.rfind("run:", 0) == 0) {
    const std::string digits = name.substr(4);
    const auto run =
        all_of(digits, ::isdigit) && digits.size() < 12 ? store.find_run(std::stoll(digits)) : std::nullopt;
    if (!run)
      throw input_error({store.path()}, "", "no run '" + name + "' recorded", valid);
    return side_from_run(store, *run);
  }
  std::optional<run_record> by_id;
  if (all_of(name, ::isdigit) && name.size() < 12)
    by_id = store.find_run(std::stoll(name));
  std::vector<run_record> by_commit;
  if (name.size() >= 4 && all_of(name, ::isxdigit)) {
    run_filter filter;
    filter.commit_prefix = name;
    filter.gpu_key = gpu_key;
    by_commit = store.runs(filter);
  }
  if (by_id && !by_commit.empty()) {
    throw input_error({store.path()}, "", "'" + name + "' is both a run id and the start of a commit",
                      "write run:" + name + " for the run, or more of the commit");
  }
  if (by_id)
    return side_from_run(store, *by_id);
  if (by_commit.empty()) {
    throw input_error({store.path()}, "",
                      "no results file, run or commit '" + name + "'" +
                          (gpu_key.empty() ? std::string() : " on GPU key " + gpu_key),
                      valid);
  }
  std::set<std::string> commits;
  std::set<std::string> keys;
  for (const auto& run : by_commit) {
    commits.insert(run.metadata.git_commit);
    keys.insert(run.metadata.gpu_key);
  }
  if (commits.size() > 1) {
    throw input_error(
        {store.path()}, "",
        fmt::format("'{}' starts {} commits: {}", name, commits.size(), fmt::join(commits, ", ")),
        "give more of the commit");
  }
  if (keys.size() > 1) {
    throw input_error(
        {store.path()}, "",
        fmt::format("commit '{}' was recorded on {} GPU keys: {}", name, keys.size(), fmt::join(keys, ", ")),
        "choose one with --gpu-key");
  }
  const run_record& latest = by_commit.back();  // oldest first
  if (by_commit.size() > 1) {
    std::fputs(
        fmt::format(
            "counterguard: commit {} has {} runs; comparing the latest, run {} (run:ID names another)\n",
            name, by_commit.size(), latest.id)
            .c_str(),
        stderr);
  }
  return side_from_run(store, latest);
}

comparison_side resolve_side(const std::string& name, const history_store* store,
                             const std::string& gpu_key) {
  if (std::filesystem::is_regular_file(name) || store == nullptr) {
    const run_results results = load_run_results(name);
    comparison_side side;
    side.label = name;
    side.values = values_of(results);
    if (store != nullptr) {  // the same results recorded in the history are not their own noise
      if (const auto run = store->find_run_by_content(results_content_hash(results)))
        side.history_run_id = run->id;
    }
    return side;
  }
  return side_from_history(*store, name, gpu_key);
}

}  // namespace

int compare_two_runs(const compare_options& options) {
  std::unique_ptr<history_store> store;
  if (!options.history.empty())
    store = std::make_unique<history_store>(options.history, history_store::open_mode::must_exist);
  const comparison_side a = resolve_side(options.a, store.get(), options.gpu_key);
  const comparison_side b = resolve_side(options.b, store.get(), options.gpu_key);
  if (a.values.metadata.gpu_key != b.values.metadata.gpu_key) {
    std::fputs(fmt::format("counterguard: A ran on GPU key {} and B on {}: differences may be the GPU's\n",
                           a.values.metadata.gpu_key, b.values.metadata.gpu_key)
                   .c_str(),
               stderr);
  }

  noise_history history;
  if (store) {
    value_window window;
    window.last_n = options.noise_window;
    window.started_before = b.values.metadata.started_at;
    for (const comparison_side* side : {&a, &b}) {
      if (side->history_run_id)
        window.excluded_runs.push_back(*side->history_run_id);
    }
    history = [&store, window, key = b.values.metadata.gpu_key](
                  const std::string& instance, const std::string& kernel, const std::string& metric) {
      return store->recent_values(key, instance, kernel, metric, window);
    };
  }
  comparison_options compare_options;
  compare_options.z_threshold = options.z_threshold;
  const run_comparison comparison = compare_runs(a, b, history, compare_options);

  comparison_report_options report;
  report.show_unchanged = options.all;
  std::fputs(render_comparison_console(comparison, report).c_str(), stdout);
  if (!options.markdown.empty())
    write_report_text(options.markdown, render_comparison_markdown(comparison, report));
  if (!options.json.empty())
    write_report_text(options.json, comparison_json(comparison).dump(2) + "\n");
  const bool fail = options.fail_on_change && comparison.flagged() > 0;
  return static_cast<int>(fail ? exit_code::check_failed : exit_code::success);
}

}  // namespace counterguard
