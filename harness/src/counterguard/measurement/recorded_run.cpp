// SPDX-License-Identifier: Apache-2.0
#include "counterguard/measurement/recorded_run.hpp"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/json_reader.hpp"
#include "counterguard/evaluator/counter_data_archive.hpp"
#include "counterguard/measurement/case_result_factory.hpp"
#include "counterguard/measurement/measure_case.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/statics/program_resources.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

constexpr const char* run_file_name = "run.json";

// Re-derives a case's metrics from its archive, through the same path the GPU run took.
case_result evaluate_archived_case(const case_instance& instance, const counter_data_archive& archive,
                                   const fs::path& folder) {
  const archived_case& entry = archive.cases.at(0);
  case_observation observation;
  observation.launches = entry.launches;
  observation.image = entry.image;
  observation.raw_metrics = entry.raw_metrics;
  observation.passes = entry.passes;
  const json_reader reader((folder / "manifest.json").string());
  read_observation_outcome(reader, archive.metadata, "metadata", observation);
  case_result result = make_case_result(instance);
  const metric_plan plan = plan_for_observation(instance, observation, metric_catalog::builtin());
  measure_case(result, plan, observation, program_kernel_resources());
  return result;
}

}  // namespace

void save_recorded_run(const fs::path& directory, const recorded_run& run) {
  const nlohmann::json document{{"suite_paths", run.suite_paths}, {"results", run.results}};
  write_file_atomically((directory / run_file_name).string(), document.dump(2) + "\n");
}

recorded_run load_recorded_run(const fs::path& directory) {
  const fs::path path = directory / run_file_name;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw input_error({path.string()}, "", "cannot read the run file",
                      "a directory written by `counterguard run --save-counter-data DIR` has one");
  }
  std::ostringstream text;
  text << in.rdbuf();
  const json_reader reader(path.string());
  const nlohmann::json document = reader.parse(text.str());
  reader.require_object(document, "");
  recorded_run run;
  run.suite_paths = reader.strings(document, "", "suite_paths");
  run.results = read_run_results(reader.object(document, "", "results"), path.string());
  return run;
}

run_results evaluate_recording(const fs::path& directory, const recorded_run& recording,
                               const std::vector<case_instance>& instances,
                               std::vector<case_instance>& evaluated) {
  // Each case profiled with counters has its own archive folder (0000, 0001, ...).
  std::map<std::string, std::pair<counter_data_archive, fs::path>> archives;
  for (const auto& item : fs::directory_iterator(directory)) {
    if (!item.is_directory())
      continue;
    counter_data_archive archive = load_counter_data_archive(item.path());
    if (archive.cases.size() != 1)
      throw input_error({item.path().string()}, "cases", "expected one case per archive folder");
    const std::string name = archive.cases.front().name;
    archives.emplace(name, std::make_pair(std::move(archive), item.path()));
  }
  std::map<std::string, const case_result*> recorded_cases;
  for (const auto& c : recording.results.cases)
    recorded_cases.emplace(c.instance, &c);

  run_results results;
  results.metadata = recording.results.metadata;
  evaluated.clear();
  for (const auto& instance : instances) {
    const auto recorded = recorded_cases.find(instance.name);
    if (recorded == recorded_cases.end())
      continue;
    evaluated.push_back(instance);
    if (const auto archived = archives.find(instance.name); archived != archives.end()) {
      results.cases.push_back(
          evaluate_archived_case(instance, archived->second.first, archived->second.second));
      // Wall time is a fact of the recording, not of this evaluation.
      results.cases.back().seconds = recorded->second->seconds;
    } else {
      case_result copy = *recorded->second;  // skipped, failed early, or without counters
      copy.checks.clear();
      if (!instance.where.file.empty())
        copy.source = instance.where;  // recordings made before results carried it have none
      results.cases.push_back(std::move(copy));
    }
  }
  return results;
}

}  // namespace counterguard
