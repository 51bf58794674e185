#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/evaluator/counter_data_archive.hpp"
#include "counterguard/evaluator/counter_data_evaluator.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/runner/case_measurement.hpp"
#include "counterguard/runner/case_result_factory.hpp"
#include "counterguard/runner/metric_plan.hpp"
#include "counterguard/statics/embedded_resource_report.hpp"

namespace counterguard::detail {
namespace {

nlohmann::json read_run_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) {
    throw input_error({path.string()}, "", "cannot read the run file",
                      "a directory written by `counterguard run --save-counter-data DIR` has one");
  }
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw input_error({path.string()}, "", std::string("not valid JSON: ") + e.what());
  }
}

// Re-derives a case's metrics from its counter-data image, as the GPU run did.
case_result evaluate_archived_case(const case_instance& instance, const counter_data_archive& archive) {
  const archived_case& entry = archive.cases.at(0);
  case_result result = make_case_result(instance);
  const metric_plan plan = plan_metrics(instance, metric_catalog::builtin());
  const std::vector<evaluated_range> ranges = evaluate_counter_data(entry.image, entry.raw_metrics);
  std::map<std::string, double> kernel_metrics;
  if (archive.metadata.contains("kernel_metrics"))
    archive.metadata.at("kernel_metrics").get_to(kernel_metrics);
  fill_measurements(result, plan, entry.launches, ranges, embedded_kernel_resources(), kernel_metrics);
  result.passes = entry.passes;
  if (archive.metadata.contains("verified")) {
    result.verified = archive.metadata.at("verified").get<bool>();
    result.verification_message = archive.metadata.value("verification_message", "");
    if (!*result.verified) {
      result.status = case_status::failed;
      result.status_reason = "wrong output: " + result.verification_message;
    }
  }
  return result;
}

}  // namespace

int run_evaluate(const evaluate_options& options) {
  const std::filesystem::path directory(options.directory);
  const nlohmann::json run_file = read_run_file(directory / "run.json");
  selection_options selection = options.selection;
  if (selection.paths.empty())
    run_file.at("suite_paths").get_to(selection.paths);
  const run_results recorded = run_file.at("results").get<run_results>();
  selection.chip = recorded.metadata.chip.empty() ? selection.chip : recorded.metadata.chip;
  const std::vector<case_instance> instances = select_instances(selection);

  // Each case profiled with counters has its own archive folder (0000, 0001, ...).
  std::map<std::string, counter_data_archive> archives;
  for (const auto& item : std::filesystem::directory_iterator(directory)) {
    if (!item.is_directory())
      continue;
    counter_data_archive archive = load_counter_data_archive(item.path());
    if (archive.cases.size() != 1) {
      throw input_error({item.path().string()}, "cases", "expected one case per archive folder");
    }
    const std::string name = archive.cases.front().name;
    archives.emplace(name, std::move(archive));
  }
  std::map<std::string, const case_result*> recorded_cases;
  for (const auto& c : recorded.cases)
    recorded_cases.emplace(c.instance, &c);

  run_results results;
  results.metadata = recorded.metadata;
  results.metadata.mode = "evaluate";
  results.metadata.command_line = options.command_line;
  std::vector<case_instance> evaluated;  // the selected instances the recording has, in suite order
  for (const auto& instance : instances) {
    if (recorded_cases.count(instance.name) == 0)
      continue;
    evaluated.push_back(instance);
    if (const auto archived = archives.find(instance.name); archived != archives.end()) {
      results.cases.push_back(evaluate_archived_case(instance, archived->second));
      // Wall time and passes are facts of the recording, not of this evaluation.
      if (const auto found = recorded_cases.find(instance.name); found != recorded_cases.end()) {
        results.cases.back().seconds = found->second->seconds;
      }
    } else {
      case_result copy = *recorded_cases.at(instance.name);  // skipped, failed early, or without counters
      copy.checks.clear();
      if (!instance.where.file.empty())
        copy.source = instance.where;  // recordings made before results carried it have none
      results.cases.push_back(std::move(copy));
    }
  }
  if (evaluated.empty()) {
    throw input_error(
        {(directory / "run.json").string()}, "results.cases",
        "none of the selected case instances was recorded in this directory",
        "select recorded cases (--filter) or record them with `counterguard run --save-counter-data`");
  }
  check_all_expectations(results, evaluated);
  return judge_and_report(results, options.reports);
}

}  // namespace counterguard::detail
