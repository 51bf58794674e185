#include "counterguard/in_process/profile_result.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "counterguard/checker/expectation_checker.hpp"
#include "counterguard/measurement/fill_measurements.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "profiled_work.hpp"

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

profile_result::profile_result(case_result result, bool skipped)
    : m_result(std::move(result)), m_skipped(skipped) {}

profile_result::profile_result(case_result result, std::shared_ptr<const profiled_work> work)
    : m_result(std::move(result)), m_work(std::move(work)) {}

bool profile_result::has(const std::string& metric) const {
  const auto found = m_result.totals.find(metric);
  return found != m_result.totals.end() && !std::isnan(found->second.value);
}

double profile_result::value(const std::string& metric) const {
  const auto found = m_result.totals.find(metric);
  return found == m_result.totals.end() ? std::numeric_limits<double>::quiet_NaN() : found->second.value;
}

metric_class profile_result::cls(const std::string& metric) const {
  const auto found = m_result.totals.find(metric);
  if (found != m_result.totals.end())
    return found->second.cls;
  const std::optional<metric_definition> definition = metric_catalog::builtin().try_resolve(metric);
  return definition ? definition->cls : metric_class::exact;
}

profile_result profile_result::for_kernel(const std::string& kernel) const {
  case_result narrowed = m_result;
  narrowed.kernels.clear();
  narrowed.totals.clear();
  narrowed.checks.clear();
  if (m_work == nullptr) {
    for (const auto& launch : m_result.kernels) {
      if (function_matches(launch.function, kernel))
        narrowed.kernels.push_back(launch);
    }
    total_without_observation(narrowed);
    return profile_result(std::move(narrowed), m_skipped);
  }
  auto subset = std::make_shared<profiled_work>();
  subset->plan = m_work->plan;
  subset->resources = m_work->resources;
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
  for (const auto& launch : m_result.kernels)
    names += (names.empty() ? "" : ", ") + launch.function;
  return names.empty() ? "no kernel launches" : names;
}

}  // namespace counterguard
