// SPDX-License-Identifier: Apache-2.0
// Writing and reading a recording's process folders: one process.json and one counter-data archive per
// profiled launch, the archives read on several threads.
#include "counterguard/exec/recorded_processes.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <future>
#include <nlohmann/json.hpp>
#include <thread>
#include <tuple>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/field_path.hpp"
#include "counterguard/core/json_reader.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* processes_folder = "processes";
constexpr const char* process_file = "process.json";

bool is_archive_folder(const fs::directory_entry& item) {
  const std::string name = item.path().filename().string();
  return item.is_directory() && !name.empty() &&
         std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// metadata.ordinals: the launch's match ordinal in each of its cases.
std::vector<std::int64_t> read_ordinals(const json_reader& reader, const json& metadata) {
  std::vector<std::int64_t> result;
  const json& ordinals = reader.array(metadata, "metadata", "ordinals");
  for (std::size_t i = 0; i < ordinals.size(); ++i) {
    if (!ordinals[i].is_number_unsigned())
      reader.fail(index_at("metadata.ordinals", i), "is " + describe_json(ordinals[i]), "a whole number");
    result.push_back(ordinals[i].get<std::int64_t>());
  }
  return result;
}

// metadata.runs: each run's profiling of the launch (merged recordings).
std::vector<recorded_launch::run_time> read_run_times(const json_reader& reader, const json& metadata) {
  std::vector<recorded_launch::run_time> runs;
  const json& list = reader.array(metadata, "metadata", "runs");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string field = index_at("metadata.runs", i);
    reader.require_object(list[i], field);
    recorded_launch::run_time run;
    run.passes = static_cast<int>(reader.integer(list[i], field, "passes", 0, 1000000));
    run.setup_milliseconds = reader.number_or_nan(reader.member(list[i], field, "setup_milliseconds"),
                                                  field + ".setup_milliseconds");
    run.launch_milliseconds = reader.number_or_nan(reader.member(list[i], field, "launch_milliseconds"),
                                                   field + ".launch_milliseconds");
    runs.push_back(run);
  }
  return runs;
}

recorded_launch load_recorded_launch(const fs::path& folder) {
  counter_data_archive archive = load_counter_data_archive(folder);
  const std::string manifest = (folder / "manifest.json").string();
  const json_reader reader(manifest);
  if (archive.cases.empty())
    reader.fail("cases", "is empty", "one entry per launch archive, and one per further pass group");
  recorded_launch launch;
  launch.data = std::move(archive.cases.front());
  launch.further_groups.assign(std::make_move_iterator(archive.cases.begin() + 1),
                               std::make_move_iterator(archive.cases.end()));
  if (reader.optional_member(archive.metadata, "metadata", "cases") != nullptr)
    launch.cases = reader.strings(archive.metadata, "metadata", "cases");
  else
    launch.cases = {launch.data.name};
  if (const json* seconds = reader.optional_member(archive.metadata, "metadata", "seconds"))
    launch.seconds = reader.number_or_nan(*seconds, "metadata.seconds");
  if (reader.optional_member(archive.metadata, "metadata", "attributes_known") != nullptr)
    launch.attributes_known = reader.boolean(archive.metadata, "metadata", "attributes_known");
  if (const json* milliseconds = reader.optional_member(archive.metadata, "metadata", "launch_milliseconds"))
    launch.launch_milliseconds = reader.number_or_nan(*milliseconds, "metadata.launch_milliseconds");
  if (reader.optional_member(archive.metadata, "metadata", "device_bytes_in_use") != nullptr) {
    launch.device_bytes_in_use = static_cast<std::uint64_t>(
        reader.integer(archive.metadata, "metadata", "device_bytes_in_use", 0, INT64_MAX));
  }
  if (const json* milliseconds = reader.optional_member(archive.metadata, "metadata", "setup_milliseconds"))
    launch.setup_milliseconds = reader.number_or_nan(*milliseconds, "metadata.setup_milliseconds");
  if (reader.optional_member(archive.metadata, "metadata", "pass_groups") != nullptr)
    launch.pass_groups =
        static_cast<int>(reader.integer(archive.metadata, "metadata", "pass_groups", 0, 1000000));
  if (reader.optional_member(archive.metadata, "metadata", "every_group_collected") != nullptr)
    launch.every_group_collected = reader.boolean(archive.metadata, "metadata", "every_group_collected");
  if (reader.optional_member(archive.metadata, "metadata", "nvtx") != nullptr)
    launch.nvtx = reader.string(archive.metadata, "metadata", "nvtx");
  if (reader.optional_member(archive.metadata, "metadata", "ordinals") != nullptr)
    launch.ordinals = read_ordinals(reader, archive.metadata);
  if (reader.optional_member(archive.metadata, "metadata", "runs") != nullptr)
    launch.runs = read_run_times(reader, archive.metadata);
  return launch;
}

// The archives' launches, in their order, read on several threads: on the H200 host reading 600 one-launch
// archives one after another took 50 ms after the program (validation/h200.md).
std::vector<recorded_launch> load_recorded_launches(const std::vector<fs::path>& archives) {
  std::vector<recorded_launch> launches(archives.size());
  const std::size_t threads =
      std::min<std::size_t>(std::max(1U, std::thread::hardware_concurrency()), (archives.size() + 63) / 64);
  if (threads <= 1) {
    for (std::size_t i = 0; i < archives.size(); ++i)
      launches[i] = load_recorded_launch(archives[i]);
    return launches;
  }
  std::vector<std::future<void>> parts;
  for (std::size_t t = 0; t < threads; ++t) {
    parts.push_back(std::async(std::launch::async, [&, t] {
      for (std::size_t i = t; i < archives.size(); i += threads)
        launches[i] = load_recorded_launch(archives[i]);
    }));
  }
  for (auto& part : parts)
    part.get();  // the first failure's error, after every thread is done
  return launches;
}

}  // namespace

fs::path process_folder(const fs::path& directory, const process_identity& process) {
  return directory / processes_folder /
         (std::to_string(process.pid) + "-" + std::to_string(process.started_ns));
}

void save_recorded_launch(const fs::path& folder, int index, const std::string& chip,
                          const recorded_launch& launch) {
  counter_data_archive archive;
  archive.chip = chip;
  archive.metadata = json{{"cases", launch.cases},
                          {"seconds", launch.seconds},
                          {"attributes_known", launch.attributes_known},
                          {"launch_milliseconds", launch.launch_milliseconds},
                          {"device_bytes_in_use", launch.device_bytes_in_use},
                          {"setup_milliseconds", launch.setup_milliseconds},
                          {"pass_groups", launch.pass_groups},
                          {"every_group_collected", launch.every_group_collected},
                          {"nvtx", launch.nvtx},
                          {"ordinals", launch.ordinals}};
  if (!launch.runs.empty()) {
    json runs = json::array();
    for (const auto& run : launch.runs)
      runs.push_back({{"passes", run.passes},
                      {"setup_milliseconds", run.setup_milliseconds},
                      {"launch_milliseconds", run.launch_milliseconds}});
    archive.metadata["runs"] = std::move(runs);
  }
  archive.cases.push_back(launch.data);
  archive.cases.insert(archive.cases.end(), launch.further_groups.begin(), launch.further_groups.end());
  std::array<char, 16> name{};
  std::snprintf(name.data(), name.size(), "%04d", index);
  save_counter_data_archive(folder / name.data(), archive, file_durability::scratch);
}

std::vector<recorded_process> load_recorded_processes(const fs::path& directory) {
  std::vector<recorded_process> processes;
  const fs::path root = directory / processes_folder;
  std::error_code status;
  if (!fs::is_directory(root, status))
    return processes;
  for (const auto& item : fs::directory_iterator(root)) {
    if (!item.is_directory() || !fs::exists(item.path() / process_file))
      continue;  // a process that died before it wrote anything
    recorded_process process;
    process.folder = item.path();
    process.record = load_process_record((item.path() / process_file).string());
    std::vector<fs::path> archives;
    for (const auto& entry : fs::directory_iterator(item.path())) {
      if (is_archive_folder(entry) && fs::exists(entry.path() / "manifest.json"))
        archives.push_back(entry.path());  // without a manifest: killed while writing it
    }
    std::sort(archives.begin(), archives.end());
    process.launches = load_recorded_launches(archives);
    processes.push_back(std::move(process));
  }
  std::sort(processes.begin(), processes.end(), [](const recorded_process& a, const recorded_process& b) {
    return std::tie(a.record.process.started_ns, a.record.process.pid) <
           std::tie(b.record.process.started_ns, b.record.process.pid);
  });
  return processes;
}

}  // namespace counterguard
