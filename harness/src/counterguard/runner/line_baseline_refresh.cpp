// SPDX-License-Identifier: Apache-2.0
#include "counterguard/runner/line_baseline_refresh.hpp"

#include <algorithm>
#include <map>

#include "counterguard/blame/line_baseline_file.hpp"
#include "counterguard/blame/source_line_blame.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/statics/sass_disassembler.hpp"

namespace counterguard {
namespace {

std::vector<std::string> exact_metrics(const case_result& result) {
  std::vector<std::string> metrics;
  for (const auto& [name, value] : result.totals) {
    if (value.cls == metric_class::exact)
      metrics.push_back(name);
  }
  return metrics;
}

}  // namespace

std::vector<std::string> line_baseline_instances(const run_results& measured) {
  std::vector<std::string> instances;
  for (const auto& result : measured.cases) {
    if (result.status != case_status::skipped && result.status != case_status::error &&
        result.suite != "exec" && !exact_metrics(result).empty())
      instances.push_back(result.instance);
  }
  return instances;
}

line_baseline_refresh refresh_line_baselines(const run_results& measured, const std::string& baseline_dir,
                                             const sass_recording_options& recording,
                                             const line_attribution& attribution) {
  return refresh_line_baselines(measured, baseline_dir,
                                record_sass_profiles(line_baseline_instances(measured), recording),
                                attribution);
}

line_baseline_refresh refresh_line_baselines(const run_results& measured, const std::string& baseline_dir,
                                             const recorded_sass_profiles& recorded,
                                             const line_attribution& attribution) {
  line_baseline_refresh refresh;
  const std::vector<std::string> instances = line_baseline_instances(measured);

  std::map<std::string, line_baseline_file> files;  // by path
  for (const auto& result : measured.cases) {
    if (std::find(instances.begin(), instances.end(), result.instance) == instances.end())
      continue;
    const auto profile = recorded.by_instance.find(result.instance);
    if (profile == recorded.by_instance.end()) {
      refresh.not_recorded.push_back(result.instance + ": " +
                                     (recorded.problem.empty() ? "no profile recorded" : recorded.problem));
      continue;
    }
    const std::vector<std::string> metrics = blame_metrics_of(exact_metrics(result), profile->second);
    if (metrics.empty()) {
      refresh.not_recorded.push_back(result.instance +
                                     ": no per-instruction counter corresponds to its metrics");
      continue;
    }
    std::vector<std::string> missing;
    std::vector<kernel_blame> blames;
    try {
      // With nvdisasm (the GPU host's toolkit), the lines keep their memory opcodes: a later change of
      // instruction kind shows against them.
      blames = join_profile(profile->second, profile->second.binary, find_nvdisasm().empty(), &missing,
                            attribution);
    } catch (const input_error& e) {
      refresh.not_recorded.push_back(result.instance + ": " + e.what());
      continue;
    }
    const std::string path = line_baseline_path(baseline_dir, measured.metadata.gpu_key, result.suite);
    auto file = files.find(path);
    if (file == files.end()) {
      line_baseline_file loaded = load_line_baseline_file(path).value_or(line_baseline_file{});
      loaded.schema_version = line_baseline_schema_version;
      loaded.gpu_key = measured.metadata.gpu_key;
      loaded.suite = result.suite;
      loaded.chip = measured.metadata.device.chip;
      file = files.emplace(path, std::move(loaded)).first;
    }
    file->second.cases[result.instance] = make_line_profile(blames, metrics);
  }
  for (const auto& [path, file] : files) {
    save_line_baseline_file(path, file);
    refresh.written.push_back(path);
    for (const auto& [instance, profile] : file.cases) {
      if (profile.attribution != attribution)
        refresh.keyed_otherwise.push_back(path + ": " + instance);
    }
  }
  return refresh;
}

}  // namespace counterguard
