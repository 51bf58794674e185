// SPDX-License-Identifier: Apache-2.0
// `counterguard blame`: per-instruction counters (CUPTI SASS metrics) of a case's kernel launches, joined to
// source lines and SASS, ranked; or the same join (and a before/after diff) offline from recorded profiles.
#include "counterguard/pipeline/sass_blame.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "counterguard/blame/blame_diff.hpp"
#include "counterguard/blame/source_line_blame.hpp"
#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/cuda_check.hpp"
#include "counterguard/core/cuda_stream.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/profiler/gpu_lock.hpp"
#include "counterguard/profiler/sass_metrics_collector.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/reporters/report_output.hpp"
#include "counterguard/runner/program_supervisor.hpp"
#include "counterguard/runner/regression_blame.hpp"
#include "counterguard/statics/sass_disassembler.hpp"

namespace counterguard {
namespace {

std::string self_path() {
  std::vector<char> buffer(PATH_MAX + 1, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", buffer.data(), PATH_MAX);
  return n > 0 ? std::string(buffer.data(), static_cast<std::size_t>(n)) : "/proc/self/exe";
}

bool nvdisasm_available() {
  return !find_nvdisasm().empty();  // empty when there is none
}

void print_blame(const std::vector<kernel_blame>& blames, const sass_profile& profile, std::size_t top) {
  std::fputs(fmt::format("{} on {} ({}):\n", profile.case_name, profile.gpu, profile.chip).c_str(), stdout);
  if (profile.dropped_records > 0)
    std::fputs(fmt::format("warning: CUPTI dropped {} records\n", profile.dropped_records).c_str(), stdout);
  for (const auto& blame : blames) {
    std::fputs(fmt::format("\n{} ({})\n", blame.function, blame.architecture).c_str(), stdout);
    if (!blame.unmatched_pc_offsets.empty()) {
      std::fputs(fmt::format("warning: {} counted PCs are not in this cubin's function (another build?)\n",
                             blame.unmatched_pc_offsets.size())
                     .c_str(),
                 stdout);
    }
    for (const auto& metric : blamed_metric_names(profile)) {
      const auto ranked = rank_lines(blame, metric, top);
      if (ranked.empty())
        continue;
      std::fputs(fmt::format("  {}:\n", sass_metric_display_name(metric)).c_str(), stdout);
      for (const blamed_line* line : ranked) {
        const blamed_instruction& instruction = top_instruction(blame, *line, metric);
        const std::vector<std::string> chain = inline_chain(instruction);
        const std::string place = chain.size() > 1 ? chain_text(chain) : line_place(line->position);
        std::fputs(fmt::format("    {:<22} {:>14}  {}\n", place, line->values.at(metric),
                               instruction.sass.empty()
                                   ? fmt::format("PC {:04x}", instruction.pc_offset)
                                   : fmt::format("{:04x} {}", instruction.pc_offset, instruction.sass))
                       .c_str(),
                   stdout);
      }
    }
  }
}

nlohmann::json blame_json(const std::vector<kernel_blame>& blames) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& blame : blames) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& line : blame.lines) {
      nlohmann::json instructions = nlohmann::json::array();
      for (const std::size_t i : line.instructions) {
        const auto& instruction = blame.instructions[i];
        instructions.push_back({{"pc_offset", instruction.pc_offset},
                                {"sass", instruction.sass},
                                {"chain", inline_chain(instruction)},
                                {"values", instruction.values}});
      }
      lines.push_back({{"place", line_place(line.position)},
                       {"file", line.position ? line.position->file : ""},
                       {"line", line.position ? line.position->line : 0},
                       {"values", line.values},
                       {"memory_opcodes",
                        line.memory_opcodes ? nlohmann::json(*line.memory_opcodes) : nlohmann::json(nullptr)},
                       {"instructions", instructions}});
    }
    out.push_back({{"function", blame.function},
                   {"mangled", blame.mangled},
                   {"architecture", blame.architecture},
                   {"unmatched_pc_offsets", blame.unmatched_pc_offsets},
                   {"lines", lines}});
  }
  return out;
}

std::vector<kernel_blame> join(const sass_profile& profile, const blame_options& options) {
  const std::string binary = !options.binary.empty() ? options.binary : profile.binary;
  const bool lines_only = options.lines_only || !nvdisasm_available();
  std::vector<std::string> missing;
  line_attribution attribution;
  attribution.external_dirs = options.blame_external;
  std::vector<kernel_blame> blames = join_profile(profile, binary, lines_only, &missing, attribution);
  for (const auto& problem : missing)
    std::fputs(fmt::format("warning: not joined: {}\n", problem).c_str(), stderr);
  return blames;
}

int report(const sass_profile& profile, const blame_options& options) {
  const std::vector<kernel_blame> blames = join(profile, options);
  print_blame(blames, profile, options.top);
  nlohmann::json json = {{"profile", to_json(profile)}, {"blame", blame_json(blames)}};
  if (!options.against.empty()) {
    const sass_profile before = read_sass_profile(options.against);
    if (before.chip != profile.chip) {
      throw input_error(source_location{options.against}, "chip",
                        "was recorded on " + before.chip + " (" + before.gpu +
                            "), the profile compared with it on " + profile.chip,
                        "a profile recorded on the same chip");
    }
    const std::vector<blame_change> changes = diff_blame(join(before, options), blames);
    std::fputs(fmt::format("\nchanged against {} ({} lines):\n", options.against, changes.size()).c_str(),
               stdout);
    nlohmann::json diff = nlohmann::json::array();
    for (std::size_t i = 0; i < changes.size(); ++i) {
      if (options.top == 0 || i < options.top)
        std::fputs(("  " + describe_blamed_line(blamed_line_of(changes[i])) + "\n").c_str(), stdout);
      diff.push_back({{"function", changes[i].function},
                      {"place", changes[i].place},
                      {"chain", changes[i].chain},
                      {"sass", changes[i].sass},
                      {"metric", changes[i].metric},
                      {"before", changes[i].before},
                      {"after", changes[i].after},
                      {"opcodes_before", changes[i].opcodes_before},
                      {"opcodes_after", changes[i].opcodes_after}});
    }
    json["changes"] = diff;
  }
  if (!options.json.empty())
    write_report_text(options.json, json.dump(1) + "\n");
  return 0;
}

std::string joined_patterns(const std::vector<std::string>& patterns) {
  std::string out;
  for (const auto& pattern : patterns)
    out += (out.empty() ? "" : "', '") + pattern;
  return out;
}

// The instances any --case matches, in suite order, each once.
std::vector<case_instance> selected_instances(const blame_options& options) {
  std::vector<case_instance> all = select_instances(options.selection);
  std::vector<case_instance> chosen;
  for (auto& instance : all) {
    const bool matches = std::any_of(
        options.case_patterns.begin(), options.case_patterns.end(),
        [&](const std::string& pattern) { return !filter_instances({instance}, pattern).empty(); });
    if (matches)
      chosen.push_back(std::move(instance));
  }
  for (const auto& pattern : options.case_patterns) {
    if (filter_instances(chosen, pattern).empty()) {
      throw input_error({}, "--case", "no case instance matches '" + pattern + "'",
                        "a name or glob that `counterguard list` shows");
    }
  }
  return chosen;
}

// CUPTI's SASS metrics take one configuration per process: on the H200 a second cuptiSassMetricsSetConfig,
// after the first was unset, returns CUPTI_ERROR_OUT_OF_MEMORY. So several instances are blamed one process
// each, this command again with the same options and one exact --case; --record-dir's index is written here.
int blame_one_process_each(const std::vector<case_instance>& instances, const blame_options& options) {
  if (!options.json.empty()) {
    throw input_error(
        {}, "--json",
        "writes one instance's blame, and --case matches " + std::to_string(instances.size()) + " instances",
        "--instance N or a narrower --case");
  }
  if (!options.record_dir.empty())
    std::filesystem::create_directories(options.record_dir);
  nlohmann::json index = nlohmann::json::object();
  int status = 0;
  for (const auto& instance : instances) {
    program_launch launch;
    launch.argv = {self_path(), "blame"};
    launch.argv.insert(launch.argv.end(), options.selection.paths.begin(), options.selection.paths.end());
    launch.argv.insert(launch.argv.end(),
                       {"--case", instance.name, "--chip", options.selection.chip, "--device",
                        std::to_string(options.device), "--top", std::to_string(options.top),
                        "--wait-for-gpu", fmt::format("{}", options.wait_for_gpu_seconds)});
    for (const auto& metric : options.metrics)
      launch.argv.insert(launch.argv.end(), {"--metric", metric});
    for (const auto& directory : options.blame_external)
      launch.argv.insert(launch.argv.end(), {"--blame-external", directory});
    for (const auto& [flag, on] : {std::pair<const char*, bool>{"--lines-only", options.lines_only},
                                   {"--trace", options.trace},
                                   {"--quiet", options.quiet}}) {
      if (on)
        launch.argv.emplace_back(flag);
    }
    if (!options.against.empty())
      launch.argv.insert(launch.argv.end(), {"--against", options.against});
    if (!options.binary.empty())
      launch.argv.insert(launch.argv.end(), {"--binary", options.binary});
    const std::string file = fmt::format("{:04}.json", index.size());
    if (!options.record_dir.empty())
      launch.argv.insert(launch.argv.end(), {"--record", options.record_dir + "/" + file});
    const program_outcome outcome = run_program(launch);
    const int exit_status =
        outcome.exit_status ? *outcome.exit_status : static_cast<int>(exit_code::internal_error);
    if (!options.record_dir.empty() && std::filesystem::exists(options.record_dir + "/" + file))
      index[instance.name] = file;
    if (exit_status == static_cast<int>(exit_code::check_failed)) {
      status = exit_status;  // a wrong answer: the other instances are still blamed
    } else if (exit_status != 0) {
      std::fputs(fmt::format("counterguard: blame of {} {}\n", instance.name, outcome.describe()).c_str(),
                 stderr);
      status = exit_status;
      break;
    }
  }
  // Last: a reader that finds the index finds every profile it names.
  if (!options.record_dir.empty())
    write_file_atomically(options.record_dir + "/index.json", index.dump(1) + "\n");
  return status;
}

}  // namespace

int blame_cases(const blame_options& options) {
  if (!options.from.empty())
    return report(read_sass_profile(options.from), options);

  if (options.list_metrics) {
    const sass_metrics_collector collector(options.device, options.trace ? stderr : nullptr);
    for (const auto& metric : collector.available_metrics())
      std::fputs(fmt::format("{}  {}\n", metric.name, metric.description).c_str(), stdout);
    return 0;
  }
  if (options.case_patterns.empty())
    throw input_error({}, "--case", "is missing", "a case instance name or glob (`counterguard list`)");

  std::vector<case_instance> instances = selected_instances(options);
  const std::string case_pattern = joined_patterns(options.case_patterns);
  if (options.instance >= 0) {
    if (static_cast<std::size_t>(options.instance) >= instances.size()) {
      throw input_error({}, "--instance",
                        "is " + std::to_string(options.instance) + " but '" + case_pattern + "' matches " +
                            std::to_string(instances.size()) + " instances",
                        "0.." + std::to_string(instances.size() - 1));
    }
    instances = {instances[static_cast<std::size_t>(options.instance)]};
  } else if (instances.size() > 1 && !options.record.empty()) {
    std::string names;
    for (std::size_t i = 0; i < instances.size(); ++i)
      names += fmt::format("\n  {}: {}", i, instances[i].name);
    throw input_error({}, "--case",
                      "'" + case_pattern + "' matches " + std::to_string(instances.size()) +
                          " instances and --record writes one profile:" + names,
                      "--instance N, a narrower --case, or --record-dir");
  }
  if (instances.size() > 1)
    return blame_one_process_each(instances, options);
  if (!options.record_dir.empty())
    std::filesystem::create_directories(options.record_dir);

  // The GPU only once the cases are known: a wrong --case is reported on any machine.
  sass_metrics_collector collector(options.device, options.trace ? stderr : nullptr);
  // Queued behind other counterguard processes profiling this GPU (docs/cli.md, COUNTERGUARD_LOCK_DIR); taken
  // once the collector has set up CUDA and CUPTI in its own order, before anything is collected.
  const std::string uuid = gpu_uuid(options.device);
  std::unique_ptr<gpu_lock> lock;
  if (!uuid.empty()) {
    lock = std::make_unique<gpu_lock>(uuid, options.wait_for_gpu_seconds, [](const std::string& message) {
      std::fputs(("counterguard: " + message + "\n").c_str(), stderr);
    });
  }
  std::vector<std::string> skipped;
  const std::vector<sass_metric_choice> metrics = choose_sass_metrics(
      options.metrics, collector.available_metric_names(), collector.device().chip, &skipped);
  for (const auto& name : skipped)
    std::fputs(
        fmt::format("note: chip {} has no SASS metric for {}\n", collector.device().chip, name).c_str(),
        stderr);

  const cuda_stream stream;
  int failures = 0;
  nlohmann::json index = nlohmann::json::object();  // --record-dir: instance -> file
  // With --quiet (run's blame pass), what is skipped goes to stderr: stdout is the caller's report.
  std::FILE* notes = options.quiet ? stderr : stdout;
  for (const auto& instance : instances) {
    if (instance.skip_reason) {
      std::fputs(fmt::format("skipped {}: {}\n", instance.name, *instance.skip_reason).c_str(), notes);
      continue;
    }
    // The same steps as `run` and `launch`: the registered variant creates its inputs, launches, verifies.
    const kernel_definition& definition = *kernel_registry::global().find(instance.kernel);
    if (definition.required_compute_capability() > collector.device().compute_capability) {
      std::fputs(fmt::format("skipped {}: needs compute capability {}\n", instance.name,
                             definition.required_compute_capability())
                     .c_str(),
                 notes);
      continue;
    }
    const auto run = definition.create(kernel_arguments(instance.parameters, instance.launch));
    COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());
    const sass_metrics_capture capture = collector.collect(metrics, [&] { run->launch(stream.get()); });
    const verification verdict = run->verify();
    if (verdict.checked && !verdict.passed) {
      ++failures;
      std::fputs(fmt::format("WRONG {}: {}\n", instance.name, verdict.message).c_str(), notes);
    }
    if (capture.records.empty()) {
      throw api_error("CUPTI SASS metrics reported no instruction for case '" + instance.name +
                          "' (run with --trace to see each CUPTI call)",
                      0);
    }
    const sass_profile profile = make_sass_profile(capture, collector.device(), instance.name, self_path());
    if (!options.record.empty())
      write_sass_profile(options.record, profile);
    if (!options.record_dir.empty()) {
      const std::string file = fmt::format("{:04}.json", index.size());
      write_sass_profile(options.record_dir + "/" + file, profile);
      index[instance.name] = file;
    }
    if (!options.quiet)
      report(profile, options);
  }
  // Last: a reader that finds the index finds every profile it names.
  if (!options.record_dir.empty())
    write_file_atomically(options.record_dir + "/index.json", index.dump(1) + "\n");
  return failures == 0 ? 0 : static_cast<int>(exit_code::check_failed);
}

}  // namespace counterguard
