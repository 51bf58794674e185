// SPDX-License-Identifier: Apache-2.0
#include "counterguard/in_process/profile_result.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "counterguard/checker/expectation_checker.hpp"
#include "counterguard/core/value_format.hpp"
#include "counterguard/in_process/process_profiler.hpp"
#include "counterguard/measurement/fill_measurements.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "detail/profiled_work.hpp"

namespace counterguard {
namespace {

// A plain counter (not a ratio or other formula of several): its total over launches is their sum.
bool is_plain_summable_counter(const metric_definition& definition) {
  return definition.source == metric_source::cupti && definition.summable &&
         definition.raw_inputs.size() == 1 && definition.formula == definition.raw_inputs.front();
}

// A result read back without its observation (no counters to re-total): one launch gives its own values;
// several give the sum of plain counters and the largest static or launch value, and leave ratios unmeasured.
void total_without_observation(case_result& narrowed) {
  std::map<std::string, int> seen;
  for (const auto& launch : narrowed.kernels) {
    for (const auto& [metric, value] : launch.metrics) {
      const std::optional<metric_definition> definition = metric_catalog::builtin().try_resolve(metric);
      const metric_class cls = definition ? definition->cls : metric_class::exact;
      auto [total, inserted] = narrowed.totals.emplace(metric, metric_value{value, cls});
      ++seen[metric];
      if (inserted || !definition)
        continue;
      if (is_plain_summable_counter(*definition))
        total->second.value += value;
      else if (definition->source != metric_source::cupti)
        total->second.value = std::max(total->second.value, value);
    }
  }
  for (const auto& [metric, count] : seen) {
    const std::optional<metric_definition> definition = metric_catalog::builtin().try_resolve(metric);
    const bool totalled = count == 1 || (definition && (is_plain_summable_counter(*definition) ||
                                                        definition->source != metric_source::cupti));
    if (!totalled)
      narrowed.totals.erase(metric);
  }
}

}  // namespace

profile_result::profile_result(case_result result, std::string skip_reason)
    : m_result(std::make_shared<const case_result>(std::move(result))),
      m_skip_reason(std::move(skip_reason)) {}

profile_result::profile_result(case_result result, std::shared_ptr<const profiled_work> work)
    : m_result(std::make_shared<const case_result>(std::move(result))), m_work(std::move(work)) {}

const case_result& result_record(const profile_result& result) {
  static const case_result nothing_measured;
  return result.m_result != nullptr ? *result.m_result : nothing_measured;
}

const profiled_work* observed_work(const profile_result& result) {
  return result.m_work.get();
}

bool profile_result::has(const std::string& metric) const {
  const auto& totals = result_record(*this).totals;
  const auto found = totals.find(metric);
  return found != totals.end() && !std::isnan(found->second.value);
}

double profile_result::value(const std::string& metric) const {
  const auto& totals = result_record(*this).totals;
  const auto found = totals.find(metric);
  return found == totals.end() ? std::numeric_limits<double>::quiet_NaN() : found->second.value;
}

metric_class profile_result::cls(const std::string& metric) const {
  const auto& totals = result_record(*this).totals;
  const auto found = totals.find(metric);
  if (found != totals.end())
    return found->second.cls;
  const std::optional<metric_definition> definition = metric_catalog::builtin().try_resolve(metric);
  return definition ? definition->cls : metric_class::exact;
}

profile_result profile_result::for_kernel(const std::string& kernel) const {
  const case_result& whole = result_record(*this);
  case_result narrowed = whole;
  narrowed.kernels.clear();
  narrowed.totals.clear();
  narrowed.checks.clear();
  if (m_work == nullptr) {
    for (const auto& launch : whole.kernels) {
      if (function_matches(launch.function, kernel))
        narrowed.kernels.push_back(launch);
    }
    total_without_observation(narrowed);
    return profile_result(std::move(narrowed), m_skip_reason);
  }
  auto subset = std::make_shared<profiled_work>();
  subset->plan = m_work->plan;
  subset->resources = m_work->resources;
  subset->launch_attributes_known = m_work->launch_attributes_known;
  const std::vector<evaluated_range>& ranges = m_work->ranges();
  std::vector<evaluated_range> kept_ranges;
  for (std::size_t i = 0; i < m_work->launches.size(); ++i) {
    if (!function_matches(m_work->launches[i].function, kernel))
      continue;
    subset->launches.push_back(m_work->launches[i]);
    if (i < ranges.size())
      kept_ranges.push_back(ranges[i]);
  }
  fill_measurements(narrowed, subset->plan, subset->launches, kept_ranges, *subset->resources, {});
  subset->set_ranges(std::move(kept_ranges));
  return profile_result(std::move(narrowed), std::shared_ptr<const profiled_work>(std::move(subset)));
}

std::string profile_result::kernel_names() const {
  std::string names;
  for (const auto& launch : result_record(*this).kernels)
    names += (names.empty() ? "" : ", ") + launch.function;
  return names.empty() ? "no kernel launches" : names;
}

std::optional<std::string> metric_check_failure(const char* result_text, const char* metric_text,
                                                const char* bound_text, const profile_result& result,
                                                const std::string& metric, double bound,
                                                metric_relation relation, double relative_tolerance) {
  if (result.skipped())
    return std::nullopt;  // the test is already marked skipped, with the reason
  const char* relation_text = relation == metric_relation::equal      ? "=="
                              : relation == metric_relation::at_most  ? "<="
                              : relation == metric_relation::at_least ? ">="
                                                                      : "~=";
  if (!result.has(metric)) {
    return "metric '" + metric + "' (" + metric_text + ") was not measured in " + result_text + " (" +
           result.kernel_names() +
           "); a compiler metric needs the kernels linked with counterguard_link_kernels, a per-kernel one a "
           "kernel that ran";
  }
  const double measured = result.value(metric);
  resolved_expectation expectation;
  expectation.metric = metric;
  expectation.tolerance = relative_tolerance;
  constexpr double unbounded = std::numeric_limits<double>::infinity();
  expectation.kind = relation == metric_relation::at_most    ? comparison::max
                     : relation == metric_relation::at_least ? comparison::min
                                                             : comparison::equals;
  expectation.lower = relation == metric_relation::at_most ? -unbounded : bound;
  expectation.upper = relation == metric_relation::at_least ? unbounded : bound;
  if (satisfies(expectation, measured))
    return std::nullopt;
  std::string failure = "metric '" + metric + "' of " + result.kernel_names() + ": expected " +
                        relation_text + " " + format_value(bound) + " (" + bound_text + ")";
  if (relation == metric_relation::near)
    failure += " within " + format_value(relative_tolerance * 100) + "%";
  failure += ", measured " + format_value(measured) + " (" + to_string(result.cls(metric)) + ")";
  return failure;
}

}  // namespace counterguard
