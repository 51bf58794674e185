#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>

#include "commands.hpp"
#include "counterguard/baselines/gpu_key.hpp"
#include "counterguard/build_info.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/cupti/nvperf_host_library.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/runner/raw_metric_name_check.hpp"

namespace counterguard::detail {
namespace {

std::string command_output(const char* command) {
  std::string output;
  FILE* pipe = ::popen(command, "r");
  if (pipe == nullptr)
    return output;
  std::array<char, 256> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr)
    output += buffer.data();
  ::pclose(pipe);
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r'))
    output.pop_back();
  return output;
}

}  // namespace

void add_selection(CLI::App& command, selection_options& selection) {
  command.add_option("paths", selection.paths, "suite files or directories of *.yaml (default: cases)");
  command.add_option("--filter", selection.filter,
                     "only case instances whose name matches (* is a wildcard)");
  command.add_option("--chip", selection.chip, "chip that raw CUPTI metric names are validated for")
      ->capture_default_str();
}

std::vector<case_instance> load_instances(const selection_options& selection) {
  const kernel_registry& kernels = kernel_registry::global();
  const metric_catalog& metrics = metric_catalog::builtin();
  std::vector<case_instance> instances;
  for (const auto& s : load_suites(selection.paths, kernels, metrics)) {
    for (auto& instance : expand_instances(s, kernels, metrics))
      instances.push_back(std::move(instance));
  }
  instances = filter_instances(std::move(instances), selection.filter);
  for (const auto& instance : instances) {
    if (instance.select && !selection.allow_program_cases) {
      throw input_error(
          instance.where, "select",
          "case '" + instance.name + "' selects kernel launches of a program, it has no registered kernel",
          "run it with `counterguard exec --cases " + instance.suite_path +
              " -- <program>`, and keep such suites apart from those of `run` (docs/exec.md)");
    }
  }
  return instances;
}

void validate_raw_metric_names(const std::vector<case_instance>& instances, const std::string& chip) {
  const metric_catalog& catalog = metric_catalog::builtin();
  const bool needs_names =
      std::any_of(instances.begin(), instances.end(), [&](const case_instance& instance) {
        return std::any_of(instance.expectations.begin(), instance.expectations.end(),
                           [&](const auto& e) { return !catalog.resolve(e.metric).raw_inputs.empty(); });
      });
  if (!needs_names)
    return;  // static checks only: libnvperf_host is not needed
  const metric_name_validator validator(chip);
  raw_metric_name_check names(catalog, validator);
  for (const auto& instance : instances)
    names.check(instance);
}

std::vector<case_instance> select_instances(const selection_options& selection) {
  load_nvperf_host_in_background();  // for the metric names' check below, while the suites are read
  std::vector<case_instance> instances = load_instances(selection);
  validate_raw_metric_names(instances, selection.chip);
  return instances;
}

run_metadata host_metadata(const std::string& mode, const std::string& command_line) {
  run_metadata metadata;
  metadata.counterguard_version = COUNTERGUARD_VERSION;
  metadata.mode = mode;
  metadata.command_line = command_line;
  // The environment wins (CI checkouts without .git, GPU hosts that get a copy of the tree).
  const char* commit = std::getenv("COUNTERGUARD_GIT_COMMIT");
  metadata.git_commit = commit != nullptr ? commit : command_output("git rev-parse HEAD 2>/dev/null");
  if (metadata.git_commit.size() != 40)
    metadata.git_commit = "unknown";
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::array<char, 32> stamp{};
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::strftime(stamp.data(), stamp.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  metadata.started_at = stamp.data();
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) == 0)
    metadata.hostname = host.data();
  return metadata;
}

void adopt_device(run_metadata& metadata, const run_metadata& device) {
  metadata.gpu_name = device.gpu_name;
  metadata.chip = device.chip;
  metadata.sm_count = device.sm_count;
  metadata.compute_capability = device.compute_capability;
  metadata.driver_version = device.driver_version;
  metadata.cuda_runtime_version = device.cuda_runtime_version;
  metadata.cupti_version = device.cupti_version;
  metadata.sm_clock_mhz = device.sm_clock_mhz;
  metadata.memory_clock_mhz = device.memory_clock_mhz;
  metadata.gpu_key = make_gpu_key(metadata);
}

std::string self_executable() {
  std::array<char, 4096> path{};
  const ssize_t length = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (length <= 0)
    throw environment_error(environment_problem::process,
                            "cannot find this program's path (/proc/self/exe), needed to start GPU workers");
  return std::string(path.data(), static_cast<std::size_t>(length));
}

}  // namespace counterguard::detail
