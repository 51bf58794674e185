// SPDX-License-Identifier: Apache-2.0
// Source-line blame of a program's cases: the blame passes of `exec --blame` and of
// `baseline update --with-lines -- PROGRAM`.
#include "counterguard/pipeline/exec_blame.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "counterguard/core/interruption.hpp"
#include "counterguard/exec/blamed_launches.hpp"
#include "detail/blame_guard.hpp"

namespace counterguard {

const exec_case_request* request_of_instance(const std::vector<exec_case_request>& requests,
                                             const std::string& instance) {
  for (const auto& request : requests) {
    if (instance == request.name || instance.rfind(request.name + "?", 0) == 0)
      return &request;
  }
  return nullptr;
}

exec_case_request blame_pass_request(const exec_case_request& measured) {
  exec_case_request request = measured;
  request.selector.launch_count = 1;
  request.raw_metrics.clear();
  request.own_configuration = false;
  return request;
}

program_sass_profiles record_program_sass_profiles(const exec_options& options,
                                                   const std::vector<exec_case_request>& requests,
                                                   const std::vector<std::string>& instances) {
  program_sass_profiles profiles;
  for (const auto& instance : instances) {
    const exec_case_request* request = request_of_instance(requests, instance);
    if (request == nullptr)
      continue;
    auto recording = std::make_unique<recording_directory>(std::string());
    const std::string request_path = (recording->path() / "blame_request.json").string();
    save_exec_blame_request(request_path, exec_blame_request{});
    const program_outcome program =
        run_program_blame_pass(options, {blame_pass_request(*request)}, *recording, request_path);
    interruption_guard::throw_if_interrupted();
    const std::vector<recorded_process> processes = load_recorded_processes(recording->path());
    std::map<std::string, sass_profile> blamed = load_blamed_launches(processes);
    const auto found = blamed.find(request->name);
    if (found == blamed.end()) {
      std::string why;
      for (const auto& process : processes) {
        for (const auto& progress : process.record.cases) {
          for (const auto& error : progress.errors)
            why += (why.empty() ? "" : "; ") + error;
        }
      }
      if (!why.empty() || profiles.recorded.problem.empty()) {
        profiles.recorded.problem = "the program's blame pass (" + program.describe() + ") recorded no " +
                                    "per-instruction counters of " + request->name +
                                    (why.empty() ? std::string() : ": " + why);
      }
      continue;
    }
    profiles.recorded.by_instance.emplace(instance, found->second);
    profiles.recordings.push_back(std::move(recording));
  }
  return profiles;
}

void blame_failed_exec_cases(run_results& results, const exec_options& options,
                             const std::vector<exec_case_request>& requests) {
  regression_blame_options blame;
  blame.every_failure = true;
  blame.top = options.blame_top;
  blame.attribution.external_dirs = options.blame_external;
  if (!options.reports.no_baselines)
    blame.baseline_dir = options.reports.baseline_dir;
  std::vector<std::string> instances;
  for (const auto& result : results.cases) {
    if (result.status == case_status::failed && !metrics_to_blame(result, true).empty() &&
        request_of_instance(requests, result.instance) != nullptr)
      instances.push_back(result.instance);
  }
  if (instances.empty())
    return;
  if (!options.reports.quiet) {
    std::fputs(fmt::format("counterguard: blame: running the program again for {} failed case{}\n",
                           instances.size(), instances.size() == 1 ? "" : "s")
                   .c_str(),
               stderr);
  }
  detail::blame_without_costing_the_verdict(
      [&] {
        const program_sass_profiles profiles = record_program_sass_profiles(options, requests, instances);
        return blame_regressions(results, blame, profiles.recorded);
      },
      options.reports.quiet);
}

}  // namespace counterguard
