// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/exec_results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "counterguard/core/error.hpp"
#include "counterguard/exec/replay_cost.hpp"
#include "counterguard/statics/binary_resources.hpp"

namespace counterguard {
namespace {

case_instance program_instance() {
  case_instance instance;
  instance.suite = "exec";
  instance.case_name = "program";
  instance.name = "exec/program";
  return instance;
}

}  // namespace

std::vector<kernel_resources> program_resources(const std::vector<recorded_process>& processes,
                                                const std::vector<std::string>& binaries,
                                                const std::optional<device_description>& device) {
  std::vector<std::string> files;
  for (const auto& process : processes) {
    if (!process.record.process.executable.empty())
      files.push_back(process.record.process.executable);
  }
  files.insert(files.end(), binaries.begin(), binaries.end());
  const std::string architecture = device ? "sm_" + std::to_string(device->compute_capability) : "";
  std::vector<kernel_resources> resources;
  std::set<std::string> read;
  for (const auto& file : files) {
    if (!read.insert(file).second)
      continue;
    try {
      for (auto& kernel : read_binary_kernel_resources(file)) {
        if (architecture.empty() || kernel.architecture == architecture)
          resources.push_back(std::move(kernel));
      }
    } catch (const input_error& e) {
      // A program without device code of its own: its kernels live in libraries, which --binary names.
      if (std::find(binaries.begin(), binaries.end(), file) != binaries.end())
        throw;
    }
  }
  return resources;
}

run_results exec_run_results(const exec_evaluation& evaluation, const program_outcome& program,
                             bool allow_program_failure, run_metadata metadata,
                             std::vector<case_instance>& checked) {
  run_results results;
  results.metadata = std::move(metadata);
  results.cases.push_back(program_case_result(program, allow_program_failure));
  results.cases.insert(results.cases.end(), evaluation.results.begin(), evaluation.results.end());
  checked.clear();
  checked.push_back(program_instance());
  checked.insert(checked.end(), evaluation.instances.begin(), evaluation.instances.end());
  return results;
}

std::string exec_run_summary(const program_outcome& program, const std::vector<recorded_process>& processes,
                             const std::vector<case_instance>& instances) {
  std::string command;
  for (const auto& argument : program.argv)
    command += (command.empty() ? "" : " ") + argument;
  std::string text = fmt::format("counterguard: '{}' {}; {} process{} ran with the injection\n", command,
                                 program.describe(), processes.size(), processes.size() == 1 ? "" : "es");
  for (const auto& process : processes) {
    std::int64_t profiled = 0;
    for (const auto& progress : process.record.cases)
      profiled += progress.profiled;
    text += fmt::format("counterguard:   {}: {} kernel launches, {} profiled{}\n",
                        describe_process(process.record.process), process.record.launches, profiled,
                        process.record.finished ? "" : " (it did not reach exit: crashed or killed)");
    for (const auto& progress : process.record.cases) {
      const auto instance = std::find_if(instances.begin(), instances.end(),
                                         [&](const case_instance& i) { return i.name == progress.name; });
      if (instance == instances.end() || !instance->select)
        continue;
      const std::int64_t wanted = progress.matches - instance->select->launch_skip;
      if (wanted > progress.profiled && !instance->select->launch_count) {
        text +=
            fmt::format("counterguard:     {}: profiled {} of {} matching launches (max_launches {})\n",
                        progress.name, progress.profiled, progress.matches, instance->select->max_launches);
      }
    }
  }
  if (const std::optional<std::string> note = describe_replay_cost(processes))
    text += "counterguard: " + *note + "\n";
  return text;
}

}  // namespace counterguard
