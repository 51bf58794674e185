// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/shown_checks.hpp"

#include <set>
#include <string>
#include <tuple>

namespace counterguard {

std::vector<const check_outcome*> shown_checks(const case_result& result) {
  std::vector<const check_outcome*> shown;
  if (result.kernels.size() > 1) {
    for (const auto& check : result.checks)
      shown.push_back(&check);
    return shown;
  }
  std::set<std::tuple<std::string, std::string, check_verdict>> totals;
  for (const auto& check : result.checks) {
    if (check.kernel.empty())
      totals.emplace(check.metric, check.origin, check.verdict);
  }
  for (const auto& check : result.checks) {
    if (!check.kernel.empty() && totals.count({check.metric, check.origin, check.verdict}) != 0)
      continue;
    shown.push_back(&check);
  }
  return shown;
}

}  // namespace counterguard
