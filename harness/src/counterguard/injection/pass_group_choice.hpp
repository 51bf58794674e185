// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace counterguard::injection {

// The counters this run collects for a launch, from the instructions' pass-group range: the whole
// configuration in kernel replay, or some of its one-pass groups (exec/pass_groups.hpp) in a run of
// application replay; automatic replay's first run has both the whole configuration and its first group to
// choose from, launch by launch. Each configuration is planned once. Not thread-safe: the caller serialises.
class pass_group_choice {
 public:
  pass_group_choice(int first_group, int group_count, bool automatic)
      : m_first(first_group), m_count(group_count), m_automatic(automatic) {}

  struct choice {
    std::vector<std::string> counters;  // empty: nothing of this configuration is left for this run
    int groups = 0;                     // the configuration's one-pass groups; 0 when not planned
    // Whether `counters` is every counter of the configuration (false for some groups of several).
    bool whole = true;
    // Automatic replay: `counters` is the whole configuration, kernel-replayed in kernel_replay_passes, and
    // first_group what a launch left to further runs collects.
    std::vector<std::string> first_group;
    int kernel_replay_passes = 0;
  };
  // Throws what plan_pass_groups throws (a name the chip does not have).
  [[nodiscard]] const choice& choose(const std::vector<std::string>& configuration, const std::string& chip);

 private:
  int m_first = 0;
  int m_count = 0;
  bool m_automatic = false;
  std::map<std::pair<std::string, std::vector<std::string>>, choice> m_chosen;
};

}  // namespace counterguard::injection
