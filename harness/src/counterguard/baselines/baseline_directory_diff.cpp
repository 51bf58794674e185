// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_directory_diff.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <system_error>

#include "counterguard/baselines/baseline_change_summary.hpp"
#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

// The <gpu_key>/<suite>.yaml files under `directory`, as relative paths.
std::set<std::string> baseline_files_under(const std::string& directory) {
  std::error_code error;
  if (!fs::is_directory(directory, error)) {
    throw input_error(source_location{directory, 0, 0}, {}, "no such baseline directory",
                      "a directory of <gpu_key>/<suite>.yaml files (an empty one for 'no baselines yet')");
  }
  std::set<std::string> files;
  for (const auto& key : fs::directory_iterator(directory)) {
    if (!key.is_directory())
      continue;
    for (const auto& file : fs::directory_iterator(key.path())) {
      if (file.is_regular_file() && file.path().extension() == ".yaml")
        files.insert(key.path().filename().string() + "/" + file.path().filename().string());
    }
  }
  return files;
}

const baseline_metrics* find_kernel(const std::map<std::string, baseline_case>& cases,
                                    const std::string& instance, const std::string& kernel) {
  const auto c = cases.find(instance);
  if (c == cases.end())
    return nullptr;
  const auto k = c->second.find(kernel);
  return k == c->second.end() ? nullptr : &k->second;
}

}  // namespace

std::vector<baseline_change> diff_baseline_cases(const std::map<std::string, baseline_case>& before,
                                                 const std::map<std::string, baseline_case>& after) {
  std::set<std::string> instances;
  for (const auto& item : before)
    instances.insert(item.first);
  for (const auto& item : after)
    instances.insert(item.first);
  std::vector<baseline_change> changes;
  for (const auto& instance : instances) {
    std::set<std::string> kernel_keys;
    for (const auto* side : {&before, &after}) {
      const auto c = side->find(instance);
      if (c == side->end())
        continue;
      for (const auto& item : c->second)
        kernel_keys.insert(item.first);
    }
    // The file's order: the case total first, then kernels by key.
    std::vector<std::string> kernels(kernel_keys.begin(), kernel_keys.end());
    std::stable_partition(kernels.begin(), kernels.end(),
                          [](const auto& k) { return k == baseline_total_key; });
    for (const auto& kernel : kernels) {
      const baseline_metrics* old_metrics = find_kernel(before, instance, kernel);
      const baseline_metrics* new_metrics = find_kernel(after, instance, kernel);
      std::set<std::string> metrics;
      for (const auto* side : {old_metrics, new_metrics}) {
        if (side == nullptr)
          continue;
        for (const auto& item : *side)
          metrics.insert(item.first);
      }
      for (const auto& metric : metrics) {
        baseline_change change{
            baseline_change::kind::changed, instance, kernel, metric, std::nullopt, std::nullopt};
        if (old_metrics != nullptr && old_metrics->count(metric) != 0)
          change.before = old_metrics->at(metric);
        if (new_metrics != nullptr && new_metrics->count(metric) != 0)
          change.after = new_metrics->at(metric);
        if (change.before && change.after && *change.before == *change.after)
          continue;
        if (!change.before)
          change.what = baseline_change::kind::added;
        if (!change.after)
          change.what = baseline_change::kind::removed;
        changes.push_back(std::move(change));
      }
    }
  }
  return changes;
}

std::vector<baseline_file_diff> diff_baseline_directories(const std::string& old_directory,
                                                          const std::string& new_directory) {
  const std::set<std::string> old_files = baseline_files_under(old_directory);
  const std::set<std::string> new_files = baseline_files_under(new_directory);
  std::set<std::string> all = old_files;
  all.insert(new_files.begin(), new_files.end());
  std::vector<baseline_file_diff> diffs;
  for (const auto& relative : all) {
    const std::optional<baseline_file> before =
        old_files.count(relative) != 0 ? load_baseline_file(old_directory + "/" + relative) : std::nullopt;
    const std::optional<baseline_file> after =
        new_files.count(relative) != 0 ? load_baseline_file(new_directory + "/" + relative) : std::nullopt;
    baseline_file_diff diff;
    diff.relative_path = relative;
    diff.in_old = before.has_value();
    diff.in_new = after.has_value();
    const baseline_file& named = after ? *after : *before;
    diff.gpu_key = named.gpu_key;
    diff.suite = named.suite;
    static const std::map<std::string, baseline_case> none;
    diff.changes = diff_baseline_cases(before ? before->cases : none, after ? after->cases : none);
    if (!diff.changes.empty())
      diffs.push_back(std::move(diff));
  }
  return diffs;
}

std::string render_baseline_diff_markdown(const std::vector<baseline_file_diff>& diffs,
                                          const markdown_budget& budget) {
  if (diffs.empty())
    return "No baseline value or band changed.\n";
  // Each file's differences in the refresh summary's form; "measured" counts the instances that differ.
  std::vector<baseline_update_result> sections;
  for (const auto& diff : diffs) {
    baseline_update_result section;
    section.file.gpu_key = diff.gpu_key;
    section.file.suite = diff.suite;
    section.changes = diff.changes;
    std::set<std::string> instances;
    for (const auto& change : diff.changes)
      instances.insert(change.instance);
    section.measured.assign(instances.begin(), instances.end());
    sections.push_back(std::move(section));
  }
  return render_change_summaries_markdown(sections, budget, change_summary_kind::comparison);
}

}  // namespace counterguard
