// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace counterguard {

// The counters of one profiled launch split into groups that CUPTI collects in one replay pass each, by the
// host API's pass count for the chip (no GPU needed). Kernel replay collects every group in one run of the
// program (passes beyond the first restore device memory); application replay runs the program once per
// group.
struct pass_groups {
  // Each sorted, each collectable in one pass (a single counter that alone needs more stays a group of its
  // own); hardware counters first, instrumented (smsp__sass_*) counters last, which take a pass of their own.
  std::vector<std::vector<std::string>> groups;
  int kernel_replay_passes = 0;  // the passes of all of them in one configuration (CUPTI's own packing)
};

// Plans `raw_metrics` into as few one-pass groups as first-fit finds: every counter goes into the first group
// it still fits in one pass with. Throws input_error for a chip CUPTI does not know, api_error for a name it
// refuses. Planned once per chip and counter set in a process (cached).
[[nodiscard]] pass_groups plan_pass_groups(const std::vector<std::string>& raw_metrics,
                                           const std::string& chip);

// The passes one configuration of `raw_metrics` takes on `chip` (0 for none).
[[nodiscard]] int configuration_passes(const std::vector<std::string>& raw_metrics, const std::string& chip);

// The counters of groups first .. first + count - 1 (count 0: every group from `first`), sorted, each once;
// empty past the last group.
[[nodiscard]] std::vector<std::string> counters_of_groups(const pass_groups& plan, int first, int count);

}  // namespace counterguard
