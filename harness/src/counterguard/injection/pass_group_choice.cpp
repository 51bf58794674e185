// SPDX-License-Identifier: Apache-2.0
#include "pass_group_choice.hpp"

#include "counterguard/exec/pass_groups.hpp"

namespace counterguard::injection {

const pass_group_choice::choice& pass_group_choice::choose(const std::vector<std::string>& configuration,
                                                           const std::string& chip) {
  auto key = std::make_pair(chip, configuration);
  if (const auto found = m_chosen.find(key); found != m_chosen.end())
    return found->second;
  choice chosen;
  if (m_automatic) {
    const pass_groups plan = plan_pass_groups(configuration, chip);
    chosen.counters = configuration;
    chosen.groups = static_cast<int>(plan.groups.size());
    chosen.kernel_replay_passes = plan.kernel_replay_passes;
    if (chosen.groups > 1)
      chosen.first_group = counters_of_groups(plan, 0, 1);
  } else if (m_first == 0 && m_count == 0) {
    chosen.counters = configuration;  // kernel replay of everything: no planning needed
  } else {
    const pass_groups plan = plan_pass_groups(configuration, chip);
    chosen.counters = counters_of_groups(plan, m_first, m_count);
    chosen.groups = static_cast<int>(plan.groups.size());
    chosen.whole = chosen.groups <= 1;
  }
  return m_chosen.emplace(std::move(key), std::move(chosen)).first->second;
}

}  // namespace counterguard::injection
