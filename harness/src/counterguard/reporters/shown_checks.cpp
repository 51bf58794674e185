// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/shown_checks.hpp"

#include <set>
#include <string>
#include <tuple>

#include "counterguard/reporters/display_number.hpp"

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

const source_location* expectation_line(const case_result& result, const check_outcome& check) {
  if (check.source)
    return &*check.source;
  for (const auto& other : result.checks) {
    if (other.source && other.metric == check.metric &&
        (other.kernel.empty() || other.kernel == check.kernel))
      return &*other.source;
  }
  return nullptr;
}

std::string shown_verdict(check_verdict verdict) {
  return verdict == check_verdict::new_metric ? "new" : to_string(verdict);
}

std::string shown_metric(const check_outcome& check) {
  return check.kernel.empty() ? check.metric : check.metric + " [" + check.kernel + "]";
}

std::string shown_delta(const check_outcome& check) {
  if (!check.measured || !check.baseline)
    return "-";
  const double delta = *check.measured - *check.baseline;
  return (delta > 0 ? "+" : "") + format_display_value(delta);
}

}  // namespace counterguard
