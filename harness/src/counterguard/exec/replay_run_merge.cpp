// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/replay_run_merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "counterguard/core/error.hpp"
#include "counterguard/exec/process_labels.hpp"

namespace counterguard {
namespace {

// The processes of a run that profiled something, with their labels.
struct labelled_run {
  std::vector<recorded_process*> processes;
  std::vector<std::string> labels;
};

labelled_run label_run(std::vector<recorded_process>& run) {
  labelled_run labelled;
  std::vector<process_identity> identities;
  for (auto& process : run) {
    if (process.launches.empty())
      continue;
    labelled.processes.push_back(&process);
    identities.push_back(process.record.process);
  }
  for (const auto& label : label_processes(identities))
    labelled.labels.push_back(label.suffix().empty() ? "the program's process" : label.suffix().substr(1));
  return labelled;
}

std::string describe_launch(const recorded_launch& launch) {
  const std::string kernel =
      launch.data.launches.empty() ? std::string("?") : launch.data.launches.front().function;
  std::string cases;
  for (std::size_t i = 0; i < launch.cases.size(); ++i) {
    cases += fmt::format("{}{}", i == 0 ? "" : ", ", launch.cases[i]);
    if (i < launch.ordinals.size())
      cases += fmt::format(" match {}", launch.ordinals[i]);
  }
  return fmt::format("kernel '{}' (NVTX {}; {})", kernel, launch.nvtx.empty() ? "(none)" : launch.nvtx,
                     cases);
}

bool same_launch(const recorded_launch& a, const recorded_launch& b) {
  const auto mangled = [](const recorded_launch& l) {
    return l.data.launches.empty() ? std::string() : l.data.launches.front().mangled;
  };
  return mangled(a) == mangled(b) && a.nvtx == b.nvtx && a.cases == b.cases && a.ordinals == b.ordinals;
}

[[noreturn]] void refuse(const std::string& what, std::size_t run) {
  throw input_error({}, "--replay-mode",
                    fmt::format("application replay: the selected launches of the program's run 1 and "
                                "run {} differ: {}",
                                run + 1, what),
                    "the program does not launch the same kernels in every run; `--replay-mode kernel` "
                    "measures it in one run");
}

recorded_launch::run_time run_time_of(const recorded_launch& launch) {
  return {launch.data.passes, launch.setup_milliseconds, launch.launch_milliseconds};
}

}  // namespace

std::vector<recorded_process> merge_replay_runs(std::vector<std::vector<recorded_process>> runs) {
  if (runs.empty())
    return {};
  std::vector<recorded_process> merged = std::move(runs.front());
  labelled_run first = label_run(merged);
  for (recorded_process* process : first.processes) {
    for (auto& launch : process->launches) {
      if (launch.runs.empty())
        launch.runs.push_back(run_time_of(launch));
    }
  }
  for (std::size_t r = 1; r < runs.size(); ++r) {
    labelled_run later = label_run(runs[r]);
    for (std::size_t p = 0; p < later.processes.size(); ++p) {
      const auto found = std::find(first.labels.begin(), first.labels.end(), later.labels[p]);
      if (found == first.labels.end())
        refuse(fmt::format("{} profiled {} launch(es) in run {} and none in run 1", later.labels[p],
                           later.processes[p]->launches.size(), r + 1),
               r);
    }
    for (std::size_t p = 0; p < first.processes.size(); ++p) {
      std::vector<recorded_launch>& ours = first.processes[p]->launches;
      const auto found = std::find(later.labels.begin(), later.labels.end(), first.labels[p]);
      static const std::vector<recorded_launch> none;
      const std::vector<recorded_launch>& theirs =
          found == later.labels.end()
              ? none
              : later.processes[static_cast<std::size_t>(found - later.labels.begin())]->launches;
      if (found != later.labels.end()) {  // profiling errors of any run are the merged run's
        const process_record& record =
            later.processes[static_cast<std::size_t>(found - later.labels.begin())]->record;
        for (auto& progress : first.processes[p]->record.cases) {
          for (const auto& theirs_progress : record.cases) {
            if (theirs_progress.name == progress.name)
              progress.errors.insert(progress.errors.end(), theirs_progress.errors.begin(),
                                     theirs_progress.errors.end());
          }
        }
      }
      for (std::size_t l = 0; l < ours.size() || l < theirs.size(); ++l) {
        if (l >= theirs.size())
          refuse(fmt::format("{}'s profiled launch {} in run 1, {}, is missing from run {}", first.labels[p],
                             l, describe_launch(ours[l]), r + 1),
                 r);
        if (l >= ours.size())
          refuse(fmt::format("{}'s profiled launch {} in run {}, {}, is missing from run 1", first.labels[p],
                             l, r + 1, describe_launch(theirs[l])),
                 r);
        if (!same_launch(ours[l], theirs[l]))
          refuse(fmt::format("{}'s profiled launch {} is {} in run 1 and {} in run {}", first.labels[p], l,
                             describe_launch(ours[l]), describe_launch(theirs[l]), r + 1),
                 r);
        recorded_launch& launch = ours[l];
        const recorded_launch& other = theirs[l];
        // A launch the first run collected whole (automatic replay kernel-replayed it) keeps its own
        // counters.
        if (!other.data.raw_metrics.empty() && !launch.every_group_collected)
          launch.further_groups.push_back(other.data);
        launch.runs.push_back(run_time_of(other));
        launch.seconds += other.seconds;
        launch.attributes_known = launch.attributes_known && other.attributes_known;
      }
    }
  }
  return merged;
}

}  // namespace counterguard
