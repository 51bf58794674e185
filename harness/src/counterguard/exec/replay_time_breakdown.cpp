// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/replay_time_breakdown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

namespace counterguard {
namespace {

constexpr std::size_t slowest_listed = 5;
constexpr double breakdown_bytes_per_gib = 1024.0 * 1024.0 * 1024.0;

std::vector<recorded_launch::run_time> runs_of(const recorded_launch& launch) {
  if (!launch.runs.empty())
    return launch.runs;
  return {{launch.data.passes, launch.setup_milliseconds, launch.launch_milliseconds}};
}

std::string mangled_of(const recorded_launch& launch) {
  return launch.data.launches.empty() ? std::string() : launch.data.launches.front().mangled;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

std::vector<replay_launch_time> break_down_launch_times(const std::vector<recorded_process>& processes) {
  // One-pass launch times of each kernel, for launches that have none of their own.
  std::map<std::string, std::vector<double>> one_pass_by_kernel;
  for (const auto& process : processes) {
    for (const auto& launch : process.launches) {
      for (const auto& run : runs_of(launch)) {
        if (run.passes == 1 && run.launch_milliseconds > 0.0)
          one_pass_by_kernel[mangled_of(launch)].push_back(run.launch_milliseconds);
      }
    }
  }
  std::vector<replay_launch_time> times;
  for (const auto& process : processes) {
    for (const auto& launch : process.launches) {
      replay_launch_time time;
      time.instance = launch.cases.empty() ? std::string() : launch.cases.front();
      time.kernel = launch.data.launches.empty() ? std::string() : launch.data.launches.front().function;
      time.device_bytes_in_use = launch.device_bytes_in_use;
      const std::vector<recorded_launch::run_time> runs = runs_of(launch);
      time.runs = static_cast<int>(runs.size());
      std::optional<double> one_pass;
      bool multi_pass = false;
      for (const auto& run : runs) {
        time.passes += run.passes;
        time.setup_milliseconds += run.setup_milliseconds;
        time.replay_milliseconds += run.launch_milliseconds;
        multi_pass = multi_pass || run.passes > 1;
        if (run.passes == 1 && run.launch_milliseconds > 0.0)
          one_pass = std::min(one_pass.value_or(run.launch_milliseconds), run.launch_milliseconds);
      }
      if (!one_pass) {
        const auto found = one_pass_by_kernel.find(mangled_of(launch));
        if (found != one_pass_by_kernel.end())
          one_pass = median_of(found->second);
      }
      if (!multi_pass) {
        time.restore_milliseconds = 0.0;  // one pass a run: nothing is restored
      } else if (one_pass) {
        double restore = 0.0;
        for (const auto& run : runs) {
          if (run.passes > 1)
            restore += std::max(0.0, run.launch_milliseconds - run.passes * *one_pass);
        }
        time.restore_milliseconds = restore;
        time.replay_milliseconds -= restore;
      }
      times.push_back(std::move(time));
    }
  }
  return times;
}

std::string describe_replay_record(const replay_record& replay) {
  double program = 0.0;
  std::string runs;
  for (std::size_t r = 0; r < replay.run_seconds.size(); ++r) {
    program += replay.run_seconds[r];
    runs += fmt::format("{}{:.2f}", r == 0 ? "" : " + ", replay.run_seconds[r]);
  }
  double setup = 0.0;
  double passes = 0.0;
  double restore = 0.0;
  std::size_t unknown_restore = 0;
  for (const auto& launch : replay.launches) {
    setup += launch.setup_milliseconds;
    passes += launch.replay_milliseconds;
    if (launch.restore_milliseconds)
      restore += *launch.restore_milliseconds;
    else
      ++unknown_restore;
  }
  std::string text = fmt::format(
      "counterguard: replay {} ({}{}): {} run{} of the program, {} s ({:.2f} s); {} profiled launch{}: "
      "set-up {:.0f} ms, launches and replay passes {:.0f} ms, memory restore {}{:.0f} ms (estimated)\n",
      replay.mode, replay.requested == replay.mode ? "as asked" : "--replay-mode " + replay.requested,
      replay.decision.empty() ? "" : "; " + replay.decision, replay.run_seconds.size(),
      replay.run_seconds.size() == 1 ? "" : "s", runs, program, replay.launches.size(),
      replay.launches.size() == 1 ? "" : "es", setup, passes, unknown_restore == 0 ? "" : "at least ",
      restore);
  if (unknown_restore > 0) {
    text += fmt::format(
        "counterguard:   {} multi-pass launch{} had no one-pass time to compare with: {} restore is in its "
        "replay time\n",
        unknown_restore, unknown_restore == 1 ? "" : "es", unknown_restore == 1 ? "its" : "their");
  }
  std::vector<const replay_launch_time*> slowest;
  for (const auto& launch : replay.launches)
    slowest.push_back(&launch);
  const auto total = [](const replay_launch_time* l) {
    return l->setup_milliseconds + l->replay_milliseconds + l->restore_milliseconds.value_or(0.0);
  };
  std::stable_sort(
      slowest.begin(), slowest.end(),
      [&](const replay_launch_time* a, const replay_launch_time* b) { return total(a) > total(b); });
  if (slowest.size() > 1 || (slowest.size() == 1 && slowest.front()->passes > 1)) {
    for (std::size_t i = 0; i < slowest.size() && i < slowest_listed; ++i) {
      const replay_launch_time& l = *slowest[i];
      text += fmt::format(
          "counterguard:   {} '{}': {} pass{} in {} run{}, set-up {:.1f} ms, passes {:.1f} ms, restore {} "
          "({:.1f} GiB held)\n",
          l.instance, l.kernel, l.passes, l.passes == 1 ? "" : "es", l.runs, l.runs == 1 ? "" : "s",
          l.setup_milliseconds, l.replay_milliseconds,
          l.restore_milliseconds ? fmt::format("{:.1f} ms", *l.restore_milliseconds) : std::string("unknown"),
          static_cast<double>(l.device_bytes_in_use) / breakdown_bytes_per_gib);
    }
    if (slowest.size() > slowest_listed)
      text += fmt::format("counterguard:   ... {} more in the results' metadata.replay\n",
                          slowest.size() - slowest_listed);
  }
  return text;
}

}  // namespace counterguard
