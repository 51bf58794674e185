// SPDX-License-Identifier: Apache-2.0
#include "counterguard/metrics/metric_catalog.hpp"

#include <algorithm>
#include <regex>

#include "counterguard/core/error.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/metrics/ncu_launch_metrics.hpp"

namespace counterguard {
namespace {

// Raw names whose values move between identical runs on the H200 (validation/h200.md, "What moves between
// runs"): times, DRAM, hit rates, the hardware bank-conflict counter, active warps, cycles and throughputs.
bool is_noisy_raw_name(const std::string& name) {
  static const std::regex noisy(
      R"(^(gpu__time|dram__|lts__t_sector.*hit_rate|l1tex__t_sector.*hit_rate|l1tex__data_bank_conflicts|)"
      R"(sm__warps_active|.*__cycles|.*__throughput|.*pct_of_peak|.*per_second))");
  return std::regex_search(name, noisy);
}

}  // namespace

void metric_catalog::add(metric_definition definition) {
  const std::string name = definition.name;
  if (!m_aliases.emplace(name, std::move(definition)).second) {
    throw internal_error("metric alias '" + name + "' is defined twice");
  }
}

const metric_definition* metric_catalog::find_alias(const std::string& name) const {
  const auto found = m_aliases.find(name);
  return found == m_aliases.end() ? nullptr : &found->second;
}

bool metric_catalog::looks_like_raw_cupti_name(const std::string& name) {
  // <unit>__<counter>.<rollup>[.<submetric>]: "smsp__inst_executed.sum", "l1tex__..._ld.ratio".
  static const std::regex shape(R"(^[a-z0-9]+__[a-z0-9_]+(\.[a-z0-9_]+){1,2}$)");
  return std::regex_match(name, shape);
}

metric_definition metric_catalog::resolve(const std::string& name) const {
  std::optional<metric_definition> found = try_resolve(name);
  if (!found)
    throw internal_error("unknown metric '" + name +
                         "' reached the measurement (suites are validated on load)");
  return *found;
}

std::optional<metric_definition> metric_catalog::try_resolve(const std::string& name) const {
  if (const metric_definition* alias = find_alias(name))
    return *alias;
  if (is_ncu_launch_family(name))
    return ncu_launch_metric(name);  // computed from the launch and the device, never sent to CUPTI
  if (!looks_like_raw_cupti_name(name))
    return std::nullopt;
  metric_definition raw;
  raw.name = name;
  raw.cls = is_noisy_raw_name(name) ? metric_class::noisy : metric_class::exact;
  raw.direction = metric_direction::lower_is_better;
  raw.source = metric_source::cupti;
  raw.formula = name;
  raw.raw_inputs = {name};
  raw.summable = name.size() > 4 && name.compare(name.size() - 4, 4, ".sum") == 0;
  raw.description = "raw CUPTI metric";
  return raw;
}

std::vector<std::string> metric_catalog::alias_names() const {
  std::vector<std::string> names;
  names.reserve(m_aliases.size());
  for (const auto& entry : m_aliases)
    names.push_back(entry.first);
  return names;
}

std::vector<std::string> metric_catalog::closest_aliases(const std::string& name, std::size_t count) const {
  // An ncu launch__ or device__attribute_ name is closest to the ones counterguard reports; one it refuses
  // has its reason instead (unknown_metric_problem), not a look-alike.
  if (ncu_launch_refusal(name))
    return {};
  return closest_names(name, is_ncu_launch_family(name) ? ncu_launch_family_names() : alias_names(), count);
}

std::string metric_catalog::unknown_metric_problem(const std::string& name) {
  if (const std::optional<std::string> refusal = ncu_launch_refusal(name))
    return "ncu's '" + name + "' is not reported: " + *refusal;
  return "unknown metric '" + name + "'";
}

bool metric_catalog::knows(const std::string& name) const {
  return try_resolve(name).has_value();
}

}  // namespace counterguard
