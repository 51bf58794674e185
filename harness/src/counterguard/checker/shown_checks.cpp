// SPDX-License-Identifier: Apache-2.0
#include "counterguard/checker/shown_checks.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <tuple>

#include "counterguard/checker/run_verdict.hpp"
#include "counterguard/core/display_number.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/core/value_format.hpp"

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

namespace {

shown_check show_check(const case_result& result, const check_outcome& check, bool strict) {
  // What the run decided about it, how it is worded, then its numbers.
  shown_check shown;
  shown.failing = is_failing(check, strict);
  shown.rank = attention_rank(check, strict);
  if (const source_location* line = expectation_line(result, check))
    shown.suite_line = *line;
  shown.metric = shown_metric(check);
  shown.verdict = shown_verdict(check.verdict);
  shown.verdict_name = to_string(check.verdict);
  shown.delta = shown_delta(check);
  shown.expected = round_numbers_in(check.expected);
  shown.measured = check.measured ? format_display_value(*check.measured) : "-";
  shown.baseline = check.baseline ? format_display_value(*check.baseline) : "-";
  if (check.measured)
    shown.measured_in_full = format_value(*check.measured);
  return shown;
}

shown_blame_line show_blame_line(const blamed_source_line& line) {
  return {describe_blamed_line(line), describe_blamed_place(line), describe_kind_change(line)};
}

}  // namespace

shown_case show_case(const case_result& result, bool strict) {
  shown_case shown;
  const std::vector<const check_outcome*> listed = shown_checks(result);
  shown.checks.reserve(result.checks.size());
  for (const auto& check : result.checks) {
    shown.checks.push_back(show_check(result, check, strict));
    shown.checks.back().listed = std::find(listed.begin(), listed.end(), &check) != listed.end();
  }
  if (result.blame) {
    for (const auto& line : result.blame->lines)
      shown.blame_lines.push_back(show_blame_line(line));
    shown.regressed = comma_list(result.blame->regressed);
  }
  return shown;
}

}  // namespace counterguard
