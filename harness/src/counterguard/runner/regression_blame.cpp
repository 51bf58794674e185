// SPDX-License-Identifier: Apache-2.0
#include "counterguard/runner/regression_blame.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "counterguard/blame/blame_diff.hpp"
#include "counterguard/blame/line_baseline_file.hpp"
#include "counterguard/blame/metric_blame_counterparts.hpp"
#include "counterguard/blame/source_line_blame.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/json_reader.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/core/temporary_directory.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/runner/program_supervisor.hpp"
#include "counterguard/statics/sass_disassembler.hpp"

namespace counterguard {
namespace {

void add_unique(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end())
    names.push_back(name);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string instruction_text(const blamed_instruction& instruction) {
  return instruction.sass.empty() ? fmt::format("PC {:04x}", instruction.pc_offset) : instruction.sass;
}

// The lines carrying the metrics now, the first metric's largest first; a line shown once.
std::vector<blamed_source_line> current_lines(const std::vector<kernel_blame>& blames,
                                              const std::vector<std::string>& metrics, std::size_t top) {
  std::vector<blamed_source_line> out;
  std::set<std::pair<std::string, std::string>> shown;  // (function, place)
  for (const auto& metric : metrics) {
    std::vector<std::pair<const kernel_blame*, const blamed_line*>> ranked;
    for (const auto& blame : blames) {
      for (const blamed_line* line : rank_lines(blame, metric))
        ranked.emplace_back(&blame, line);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [&](const auto& a, const auto& b) {
      return a.second->values.at(metric) > b.second->values.at(metric);
    });
    for (const auto& [blame, line] : ranked) {
      if (out.size() >= top)
        return out;
      if (!shown.emplace(blame->function, line_place(line->position)).second)
        continue;
      const blamed_instruction& top_one = top_instruction(*blame, *line, metric);
      blamed_source_line entry;
      entry.function = blame->function;
      entry.place = line_place(line->position);
      if (line->position)
        entry.file = line->position->file;
      entry.chain = inline_chain(top_one);
      entry.sass = instruction_text(top_one);
      entry.metric = metric;
      entry.after = line->values.at(metric);
      out.push_back(std::move(entry));
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> blame_metrics_of(const std::vector<std::string>& metrics,
                                          const sass_profile& profile) {
  const std::vector<std::string> collected = blamed_metric_names(profile);
  std::vector<std::string> out;
  for (const auto& metric : metrics) {
    const auto definition = metric_catalog::builtin().try_resolve(metric);
    if (!definition)
      continue;
    for (const auto& name : blame_metrics_for(definition->raw_inputs)) {
      if (std::find(collected.begin(), collected.end(), name) != collected.end())
        add_unique(out, name);
    }
  }
  return out;
}

recorded_sass_profiles record_sass_profiles(const std::vector<std::string>& instances,
                                            const sass_recording_options& options) {
  recorded_sass_profiles recorded;
  if (instances.empty())
    return recorded;
  const temporary_directory directory("counterguard-blame");
  program_launch launch;
  launch.argv = {options.executable, "blame"};
  launch.argv.insert(launch.argv.end(), options.suite_paths.begin(), options.suite_paths.end());
  for (const auto& instance : instances) {
    launch.argv.emplace_back("--case");
    launch.argv.push_back(instance);
  }
  launch.argv.insert(launch.argv.end(), {"--record-dir", directory.path(), "--quiet", "--device",
                                         std::to_string(options.device), "--chip", options.chip});
  launch.timeout_seconds = options.timeout_seconds;
  const program_outcome outcome = run_program(launch);
  if (!std::filesystem::exists(directory.path() + "/index.json")) {
    recorded.problem = "`counterguard blame` " + outcome.describe() + " and recorded nothing";
    return recorded;
  }
  return load_sass_profiles(directory.path());
}

recorded_sass_profiles load_sass_profiles(const std::string& directory, const std::string& binary) {
  const std::string index_path = directory + "/index.json";
  if (!std::filesystem::exists(index_path)) {
    throw input_error({index_path}, "", "no index.json in " + directory,
                      "a directory written by `counterguard blame --record-dir DIR`");
  }
  recorded_sass_profiles recorded;
  const json_reader in(index_path);
  const nlohmann::json index = in.parse(read_text(index_path));
  in.require_object(index, "");
  for (const auto& [instance, file] : index.items()) {
    if (!file.is_string())
      in.fail(instance, "expected a file name, got " + describe_json(file));
    sass_profile profile = read_sass_profile(directory + "/" + file.get<std::string>());
    if (!binary.empty())
      profile.binary = binary;
    recorded.by_instance.emplace(instance, std::move(profile));
  }
  return recorded;
}

blamed_source_line blamed_line_of(const blame_change& change) {
  blamed_source_line line;
  line.function = change.function;
  line.place = change.place;
  line.file = change.file;
  line.chain = change.chain;
  line.sass = change.sass;
  line.metric = change.metric;
  line.before = change.before;
  line.after = change.after;
  line.opcodes_before = change.opcodes_before;
  line.opcodes_after = change.opcodes_after;
  return line;
}

std::vector<std::string> metrics_to_blame(const case_result& result, bool every_failure) {
  std::vector<std::string> metrics;
  for (const auto& check : result.checks) {
    if (!check.failing || check.origin == "program")
      continue;
    const auto total = result.totals.find(check.metric);
    std::optional<metric_class> cls;
    if (total != result.totals.end()) {
      cls = total->second.cls;
    } else if (const auto definition = metric_catalog::builtin().try_resolve(check.metric)) {
      cls = definition->cls;
    }
    if (!cls || *cls == metric_class::static_resource)
      continue;  // the compiler's numbers: no instruction counts them
    if (every_failure || *cls == metric_class::exact)
      add_unique(metrics, check.metric);
  }
  return metrics;
}

case_blame blame_case(const std::vector<std::string>& regressed, const sass_profile& profile,
                      const line_profile* before, std::size_t top, const line_attribution& attribution,
                      const std::string& before_path) {
  case_blame out;
  out.regressed = regressed;
  out.metrics = blame_metrics_of(regressed, profile);
  if (out.metrics.empty()) {
    out.note = "no per-instruction counter corresponds to " + comma_list(regressed);
    return out;
  }
  // Against a per-line baseline, the lines are keyed as the baseline's were, so that unchanged code compares
  // equal; the lines shown are still the user's (each change's chain starts there).
  line_attribution keyed = attribution;
  std::string keyed_note;
  if (before != nullptr && before->attribution != attribution) {
    const std::string file = before_path.empty() ? "the per-line baseline" : before_path;
    if (before->attribution.innermost) {
      keyed.innermost = true;
      keyed_note = file +
                   " keys this case's lines by each instruction's own line, inlined or not (recorded before "
                   "inlined code was blamed on its calling line): compared that way; `counterguard baseline "
                   "update --with-lines` records it again.";
    } else {
      keyed = before->attribution;
      keyed_note = file + " was recorded with --blame-external " +
                   (keyed.external_dirs.empty() ? std::string("none") : comma_list(keyed.external_dirs)) +
                   ": compared that way.";
    }
  }
  std::vector<std::string> missing;
  std::vector<kernel_blame> blames;
  try {
    blames = join_profile(profile, profile.binary, find_nvdisasm().empty(), &missing, keyed);
  } catch (const input_error& e) {
    out.note =
        std::string("the recorded instructions could not be joined to their source lines: ") + e.what();
    return out;
  }
  if (before != nullptr) {
    out.against_baseline = true;
    out.note = keyed_note;
    for (const auto& change : diff_blame(to_kernel_blames(*before), blames, out.metrics)) {
      if (out.lines.size() >= top)
        break;
      if (std::find(out.metrics.begin(), out.metrics.end(), change.metric) == out.metrics.end())
        continue;
      blamed_source_line line = blamed_line_of(change);
      // A line only the baseline has (its code was removed or replaced) has no instruction to show now.
      if (line.sass.empty())
        line.sass = "(no instruction now)";
      out.lines.push_back(std::move(line));
    }
    if (!out.lines.empty())
      return out;
    out.note +=
        (out.note.empty() ? "" : " ") +
        std::string("no source line changed against the per-line baseline; the lines carrying them now:");
    if (keyed != attribution) {
      for (auto& blame : blames)
        attribute_lines(blame, attribution);
    }
  }
  out.lines = current_lines(blames, out.metrics, top);
  if (out.lines.empty() && out.note.empty())
    out.note = "no instruction counted " + comma_list(out.metrics);
  return out;
}

namespace {

// The failed cases of `results` with metrics to blame, in order, and those metrics.
std::vector<std::pair<std::string, std::vector<std::string>>> cases_to_blame(
    const run_results& results, const regression_blame_options& options) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const auto& result : results.cases) {
    if (result.status != case_status::failed)
      continue;
    std::vector<std::string> metrics = metrics_to_blame(result, options.every_failure);
    if (!metrics.empty())
      out.emplace_back(result.instance, std::move(metrics));
  }
  return out;
}

}  // namespace

std::size_t blame_regressions(run_results& results, const regression_blame_options& options,
                              const sass_recording_options& recording) {
  std::vector<std::string> instances;
  for (const auto& [instance, metrics] : cases_to_blame(results, options))
    instances.push_back(instance);
  if (instances.empty())
    return 0;
  return blame_regressions(results, options, record_sass_profiles(instances, recording));
}

std::size_t blame_regressions(run_results& results, const regression_blame_options& options,
                              const recorded_sass_profiles& recorded) {
  const auto wanted_cases = cases_to_blame(results, options);
  const std::map<std::string, std::vector<std::string>> regressed(wanted_cases.begin(), wanted_cases.end());
  if (regressed.empty())
    return 0;
  std::map<std::string, std::optional<line_baseline_file>> baselines;  // by suite
  for (auto& result : results.cases) {
    const auto wanted = regressed.find(result.instance);
    if (wanted == regressed.end())
      continue;
    const auto profile = recorded.by_instance.find(result.instance);
    if (profile == recorded.by_instance.end()) {
      case_blame none;
      none.regressed = wanted->second;
      none.note = recorded.problem.empty() ? "`counterguard blame` recorded no profile of this case"
                                           : recorded.problem;
      result.blame = std::move(none);
      continue;
    }
    const line_profile* before = nullptr;
    std::string before_path;
    if (!options.baseline_dir.empty()) {
      before_path = line_baseline_path(options.baseline_dir, results.metadata.gpu_key, result.suite);
      auto file = baselines.find(result.suite);
      if (file == baselines.end())
        file = baselines.emplace(result.suite, load_line_baseline_file(before_path)).first;
      if (file->second) {
        const auto found = file->second->cases.find(result.instance);
        if (found != file->second->cases.end())
          before = &found->second;
      }
    }
    result.blame =
        blame_case(wanted->second, profile->second, before, options.top, options.attribution, before_path);
  }
  return regressed.size();
}

}  // namespace counterguard
