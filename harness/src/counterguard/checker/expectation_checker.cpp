// SPDX-License-Identifier: Apache-2.0
#include "counterguard/checker/expectation_checker.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "counterguard/core/value_format.hpp"

namespace counterguard {
namespace {

double allowed(double bound, double tolerance) {
  return std::max(tolerance, expectation_epsilon) * std::max(std::abs(bound), 1e-12);
}

std::string where_text(const resolved_expectation& expectation) {
  const std::string text = expectation.where.to_string();
  return text.empty() ? std::string() : " (" + text + ")";
}

// What one expectation is held against: the case total or one launch's value, or why there is none.
struct measurement {
  std::string kernel;  // the launch's function; empty: the case total
  std::optional<double> value;
  std::string why_unmeasured;  // without a value: the reason someone gave, if any
  bool launched = true;        // false: no launch of the expectation's kernel was profiled
};

// Why a case total is missing: the first launch that says why it has no value.
std::string why_total_unmeasured(const case_result& result, const std::string& metric) {
  for (const auto& launch : result.kernels) {
    if (const auto found = launch.unmeasured.find(metric); found != launch.unmeasured.end())
      return "launch " + std::to_string(launch.launch_index) + " of '" + launch.function +
             "': " + found->second;
  }
  return {};
}

// Everything `result` measured for `expectation`: its total, or each launch of its kernel (one with no value
// and launched false when none was profiled).
std::vector<measurement> measurements_for(const resolved_expectation& expectation,
                                          const case_result& result) {
  if (expectation.kernel.empty()) {
    const auto found = result.totals.find(expectation.metric);
    if (found == result.totals.end())
      return {{{}, std::nullopt, why_total_unmeasured(result, expectation.metric)}};
    return {{{}, found->second.value, {}}};
  }
  std::vector<measurement> launches;
  for (const auto& launch : result.kernels) {
    if (!function_matches(launch.function, expectation.kernel))
      continue;
    const auto found = launch.metrics.find(expectation.metric);
    const auto why = launch.unmeasured.find(expectation.metric);
    launches.push_back({launch.function,
                        found == launch.metrics.end() ? std::nullopt : std::optional(found->second),
                        why == launch.unmeasured.end() ? std::string() : why->second});
  }
  if (launches.empty())
    launches.push_back({expectation.kernel, std::nullopt, {}, false});
  return launches;
}

// The one line a decided expectation check reads as: who, what was expected, what was found, and where the
// expectation is written.
std::string expectation_message(const std::string& instance, const resolved_expectation& expectation,
                                const measurement& measured) {
  std::string found;
  if (!measured.launched)
    found = ", but no launch of kernel '" + expectation.kernel + "' was profiled";
  else if (!measured.value)
    found = ", but it was not measured" +
            (measured.why_unmeasured.empty() ? "" : " (" + measured.why_unmeasured + ")");
  else
    found = ", measured " + format_value(*measured.value);
  return instance + ": " + expectation.metric +
         (measured.kernel.empty() ? "" : " [kernel " + measured.kernel + "]") + " expected " +
         expectation.text + found + where_text(expectation);
}

check_outcome judge(const std::string& instance, const resolved_expectation& expectation,
                    const measurement& measured) {
  check_outcome outcome;
  outcome.metric = expectation.metric;
  outcome.kernel = measured.kernel;
  outcome.origin = "expectation";
  outcome.expected = expectation.text;
  outcome.measured = measured.value;
  if (!expectation.where.file.empty())
    outcome.source = expectation.where;
  if (measured.value) {
    const bool ok = satisfies(expectation, *measured.value);
    outcome.verdict = ok ? check_verdict::pass : check_verdict::fail;
    outcome.failing = !ok;
  } else {
    outcome.verdict = check_verdict::missing;
    outcome.failing = true;
  }
  outcome.message = expectation_message(instance, expectation, measured);
  return outcome;
}

}  // namespace

bool satisfies(const resolved_expectation& expectation, double measured) {
  if (std::isnan(measured))
    return false;
  const double t = expectation.tolerance;
  switch (expectation.kind) {
    case comparison::equals:
      return std::abs(measured - expectation.lower) <= allowed(expectation.lower, t);
    case comparison::min:
      return measured >= expectation.lower - allowed(expectation.lower, t);
    case comparison::max:
      return measured <= expectation.upper + allowed(expectation.upper, t);
    case comparison::between:
      return measured >= expectation.lower - allowed(expectation.lower, t) &&
             measured <= expectation.upper + allowed(expectation.upper, t);
  }
  return false;
}

bool function_matches(const std::string& function, const std::string& kernel) {
  if (function == kernel)
    return true;
  const auto last = function.rfind("::");
  return last != std::string::npos && function.compare(last + 2, std::string::npos, kernel) == 0;
}

std::vector<check_outcome> check_expectations(const std::vector<resolved_expectation>& expectations,
                                              const case_result& result) {
  std::vector<check_outcome> outcomes;
  for (const auto& expectation : expectations) {
    for (const measurement& measured : measurements_for(expectation, result))
      outcomes.push_back(judge(result.instance, expectation, measured));
  }
  return outcomes;
}

std::vector<check_outcome> check_expectations(const case_instance& instance, const case_result& result) {
  return check_expectations(instance.expectations, result);
}

void add_expectation_checks(const std::vector<resolved_expectation>& expectations, case_result& result) {
  if (result.status == case_status::skipped || result.status == case_status::error)
    return;
  const std::vector<check_outcome> checks = check_expectations(expectations, result);
  result.checks.insert(result.checks.end(), checks.begin(), checks.end());
}

void add_expectation_checks(const case_instance& instance, case_result& result) {
  add_expectation_checks(instance.expectations, result);
}

void check_static_expectations(const case_instance& instance, case_result& result) {
  std::vector<resolved_expectation> static_expectations;
  for (const resolved_expectation& expectation : instance.expectations) {
    if (expectation.cls == metric_class::static_resource)
      static_expectations.push_back(expectation);
  }
  result.checks = check_expectations(static_expectations, result);
  result.counter_checks_not_run = instance.expectations.size() - static_expectations.size();
}

}  // namespace counterguard
