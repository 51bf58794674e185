// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/replay_mode.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace counterguard {
namespace {

// A line through the H200's figures for one restore (validation/h200.md): about 20 ms with little memory
// held, 6.5 ms more per GiB.
constexpr double restore_fixed_milliseconds = 20.0;
constexpr double restore_milliseconds_per_gib = 6.5;
constexpr double bytes_per_gib = 1024.0 * 1024.0 * 1024.0;

}  // namespace

const char* to_string(replay_mode mode) {
  switch (mode) {
    case replay_mode::automatic:
      return "auto";
    case replay_mode::kernel:
      return "kernel";
    case replay_mode::application:
      return "application";
  }
  return "auto";
}

std::optional<replay_mode> parse_replay_mode(const std::string& text) {
  for (const replay_mode mode : {replay_mode::automatic, replay_mode::kernel, replay_mode::application}) {
    if (text == to_string(mode))
      return mode;
  }
  return std::nullopt;
}

double estimated_restore_milliseconds(std::uint64_t device_bytes_in_use) {
  return restore_fixed_milliseconds +
         restore_milliseconds_per_gib * static_cast<double>(device_bytes_in_use) / bytes_per_gib;
}

replay_choice choose_replay(const std::vector<recorded_process>& first_run, double program_seconds) {
  replay_choice choice;
  int most_groups = 1;
  std::size_t multi_group_launches = 0;
  std::uint64_t most_bytes = 0;
  double kernel_milliseconds = 0.0;
  for (const auto& process : first_run) {
    for (const auto& launch : process.launches) {
      const int groups = std::max(1, launch.pass_groups);
      most_groups = std::max(most_groups, groups);
      if (groups < 2)
        continue;
      ++multi_group_launches;
      most_bytes = std::max(most_bytes, launch.device_bytes_in_use);
      // The remaining groups in one configuration: a pass each, a restore between any two of them.
      kernel_milliseconds += (groups - 1) * launch.launch_milliseconds +
                             (groups - 2) * estimated_restore_milliseconds(launch.device_bytes_in_use);
    }
  }
  if (most_groups < 2) {
    choice.reason = "every profiled launch took one pass: one run collected every counter";
    return choice;
  }
  choice.kernel_estimate_seconds = program_seconds + kernel_milliseconds / 1000.0;
  choice.application_estimate_seconds = (most_groups - 1) * program_seconds;
  const bool application = choice.application_estimate_seconds <= choice.kernel_estimate_seconds;
  choice.mode = application ? replay_mode::application : replay_mode::kernel;
  choice.further_runs = application ? most_groups - 1 : 1;
  choice.reason = fmt::format(
      "{} profiled launch{} need{} up to {} passes ({:.1f} GiB of device memory held at most); the first run "
      "took {:.2f} s; estimated for the remaining counters: {} more run{} of application replay {:.2f} s, "
      "one run of kernel replay {:.2f} s: {}",
      multi_group_launches, multi_group_launches == 1 ? "" : "es", multi_group_launches == 1 ? "s" : "",
      most_groups, static_cast<double>(most_bytes) / bytes_per_gib, program_seconds, most_groups - 1,
      most_groups == 2 ? "" : "s", choice.application_estimate_seconds, choice.kernel_estimate_seconds,
      application ? "application replay" : "kernel replay");
  return choice;
}

}  // namespace counterguard
