// SPDX-License-Identifier: Apache-2.0
#include "counterguard/in_process/recorded_block.hpp"

#include <algorithm>
#include <set>
#include <system_error>

#include "counterguard/core/error.hpp"
#include "counterguard/exec/exec_envelope.hpp"
#include "counterguard/in_process/process_profiler.hpp"
#include "detail/profiled_work.hpp"

namespace counterguard {
namespace {

constexpr const char* attributes_key = "launch_attributes_known";
constexpr const char* seconds_key = "seconds";

// The resources of the functions the block launched: by the code a launch names, else by its symbol.
std::vector<kernel_resources> launched_resources(const profiled_work& work) {
  std::set<std::string> codes;
  std::set<std::string> symbols;
  for (const auto& launch : work.launches) {
    if (!launch.code.empty())
      codes.insert(launch.code);
    symbols.insert(launch.mangled);
  }
  std::vector<kernel_resources> kept;
  if (work.resources == nullptr)
    return kept;
  for (const auto& resources : *work.resources) {
    if ((!resources.module.empty() && codes.count(resources.module) > 0) ||
        symbols.count(resources.mangled) > 0)
      kept.push_back(resources);
  }
  return kept;
}

}  // namespace

void save_profiled_block(const profile_result& result, const std::filesystem::path& directory,
                         const std::string& name, const std::string& chip, const nlohmann::json& metadata) {
  const profiled_work* work = observed_work(result);
  if (work == nullptr) {
    throw input_error({}, "measurement", "holds no counter data (the block was not profiled)",
                      "save a block profiled on a GPU or measured from a recording");
  }
  counter_data_archive archive;
  archive.chip = work->image.chip.empty() ? chip : work->image.chip;
  if (archive.chip.empty())
    throw input_error({}, "chip", "is unknown", "give the chip of the GPU the block was profiled on");
  archive.metadata = metadata.is_object() ? metadata : nlohmann::json::object();
  archive.metadata[attributes_key] = work->launch_attributes_known;
  archive.metadata[seconds_key] = result_record(result).seconds;
  archived_case block;
  block.name = name;
  block.raw_metrics = work->raw_metrics;
  block.launches = work->launches;
  block.passes = result_record(result).passes;
  block.image = work->image;
  archive.cases.push_back(std::move(block));
  std::error_code status;
  std::filesystem::create_directories(directory, status);
  if (status) {
    throw environment_error(environment_problem::file_system,
                            "cannot create " + directory.string() + ": " + status.message());
  }
  save_recorded_resources(directory, launched_resources(*work));
  save_counter_data_archive(directory, archive);  // the manifest last: it makes the block visible
}

recorded_block_facts read_recorded_block_facts(const std::filesystem::path& directory,
                                               const counter_data_archive& archive) {
  recorded_block_facts facts;
  const nlohmann::json& metadata = archive.metadata;
  if (metadata.contains(attributes_key) && metadata.at(attributes_key).is_boolean())
    facts.launch_attributes_known = metadata.at(attributes_key).get<bool>();
  if (metadata.contains(seconds_key) && metadata.at(seconds_key).is_number())
    facts.seconds = std::max(0.0, metadata.at(seconds_key).get<double>());
  facts.resources = load_recorded_resources(directory);
  return facts;
}

}  // namespace counterguard
