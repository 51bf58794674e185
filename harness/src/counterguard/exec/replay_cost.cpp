// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/replay_cost.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace counterguard {
namespace {

// Below these a replay's cost is not worth a word: a few milliseconds a launch, or little memory to restore.
constexpr double noticeable_milliseconds = 10.0;
constexpr std::uint64_t noticeable_bytes = 1ULL << 30;

}  // namespace

std::optional<std::string> describe_replay_cost(const std::vector<recorded_process>& processes) {
  std::vector<double> milliseconds;
  std::uint64_t most_bytes = 0;
  int most_passes = 0;
  for (const auto& process : processes) {
    for (const auto& launch : process.launches) {
      if (launch.data.passes < 2 || launch.launch_milliseconds <= 0.0)
        continue;
      milliseconds.push_back(launch.launch_milliseconds);
      most_bytes = std::max(most_bytes, launch.device_bytes_in_use);
      most_passes = std::max(most_passes, launch.data.passes);
    }
  }
  if (milliseconds.empty())
    return std::nullopt;
  std::sort(milliseconds.begin(), milliseconds.end());
  const double median = milliseconds[milliseconds.size() / 2];
  if (median < noticeable_milliseconds || most_bytes < noticeable_bytes)
    return std::nullopt;
  return fmt::format(
      "{} profiled launch{} took up to {} passes each, {:.0f} ms a launch (median): between passes CUPTI "
      "saves and "
      "restores the device memory the program holds ({:.1f} GiB), so the cost grows with it. A launch "
      "measured in "
      "one pass needs no restore: --replay-mode application runs the program once per pass group, or measure "
      "fewer metrics per run (one case at a time with --filter, or fewer "
      "--metric), or hold less device memory while the selected launches run",
      milliseconds.size(), milliseconds.size() == 1 ? "" : "es", most_passes, median,
      static_cast<double>(most_bytes) / static_cast<double>(1ULL << 30));
}

}  // namespace counterguard
