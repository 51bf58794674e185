// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cupti/metric_name_validator.hpp"

#include <cupti_profiler_host.h>

#include <algorithm>
#include <utility>

#include "counterguard/core/error.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/profiler_host.hpp"

namespace counterguard {
namespace {

// CUPTI lists bases with their unit and group in front ("SM.TriageCompute.smsp__inst_executed"); a metric
// name uses only the last part.
std::string strip_group(const char* listed) {
  const std::string name(listed);
  const auto dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

// "a__b.sum.per_second" -> {"a__b", ".sum.per_second"}; no dot -> {name, ""}.
std::pair<std::string, std::string> split_metric(const std::string& metric) {
  const auto dot = metric.find('.');
  if (dot == std::string::npos)
    return {metric, {}};
  return {metric.substr(0, dot), metric.substr(dot)};
}

}  // namespace

metric_name_validator::metric_name_validator(std::string chip) : m_chip(std::move(chip)) {
  detail::with_shared_profiler_host(m_chip, [&](detail::profiler_host& host) {
    for (int type = CUPTI_METRIC_TYPE_COUNTER; type < CUPTI_METRIC_TYPE__COUNT; ++type) {
      const auto metric_type = static_cast<CUpti_MetricType>(type);
      auto bases = detail::cupti_params<CUpti_Profiler_Host_GetBaseMetrics_Params>(
          CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE);
      bases.pHostObject = host.get();
      bases.metricType = metric_type;
      COUNTERGUARD_CUPTI_CHECK(cuptiProfilerHostGetBaseMetrics(&bases));
      for (std::size_t i = 0; i < bases.numMetrics; ++i) {
        auto subs = detail::cupti_params<CUpti_Profiler_Host_GetSubMetrics_Params>(
            CUpti_Profiler_Host_GetSubMetrics_Params_STRUCT_SIZE);
        subs.pHostObject = host.get();
        subs.metricType = metric_type;
        subs.pMetricName = bases.ppMetricNames[i];
        COUNTERGUARD_CUPTI_CHECK(cuptiProfilerHostGetSubMetrics(&subs));
        const std::string base = strip_group(bases.ppMetricNames[i]);
        std::set<std::string> suffix_set(subs.ppSubMetrics, subs.ppSubMetrics + subs.numOfSubmetrics);
        // A base listed under two types accepts the suffixes of both.
        if (const auto known = m_suffix_set_of_base.find(base); known != m_suffix_set_of_base.end()) {
          suffix_set.insert(m_suffix_sets[known->second].begin(), m_suffix_sets[known->second].end());
        }
        auto shared = std::find(m_suffix_sets.begin(), m_suffix_sets.end(), suffix_set);
        if (shared == m_suffix_sets.end())
          shared = m_suffix_sets.insert(m_suffix_sets.end(), std::move(suffix_set));
        m_suffix_set_of_base[base] = static_cast<std::size_t>(shared - m_suffix_sets.begin());
      }
    }
  });
  m_base_metrics.reserve(m_suffix_set_of_base.size());
  for (const auto& entry : m_suffix_set_of_base)
    m_base_metrics.push_back(entry.first);
}

std::vector<std::string> metric_name_validator::suffixes(const std::string& base) const {
  const auto found = m_suffix_set_of_base.find(base);
  if (found == m_suffix_set_of_base.end())
    return {};
  const auto& set = m_suffix_sets[found->second];
  return {set.begin(), set.end()};
}

bool metric_name_validator::is_valid(const std::string& metric) const {
  const auto [base, suffix] = split_metric(metric);
  const auto found = m_suffix_set_of_base.find(base);
  return found != m_suffix_set_of_base.end() && m_suffix_sets[found->second].count(suffix) > 0;
}

std::vector<std::string> metric_name_validator::suggestions(const std::string& metric,
                                                            std::size_t count) const {
  const auto [base, suffix] = split_metric(metric);
  // A known base with a wrong rollup: the closest rollups of that base.
  if (m_suffix_set_of_base.count(base) > 0) {
    std::vector<std::string> names;
    for (const auto& candidate : closest_names(suffix, suffixes(base), count))
      names.push_back(base + candidate);
    return names;
  }
  // Otherwise the closest bases, each with the user's rollup when it fits, else its closest (or usual) one.
  std::vector<std::string> names;
  for (const auto& candidate : closest_names(base, m_base_metrics, count)) {
    const auto& valid = m_suffix_sets[m_suffix_set_of_base.at(candidate)];
    std::string rollup;
    if (valid.count(suffix) > 0) {
      rollup = suffix;
    } else if (suffix.empty() && valid.count(".sum") > 0) {
      rollup = ".sum";
    } else if (suffix.empty() && valid.count(".ratio") > 0) {
      rollup = ".ratio";
    } else {
      const auto nearest = closest_names(suffix, {valid.begin(), valid.end()}, 1);
      rollup = nearest.empty() ? std::string() : nearest.front();
    }
    names.push_back(candidate + rollup);
  }
  return names;
}

int metric_name_validator::pass_count(const std::vector<std::string>& metrics) const {
  std::vector<std::string> invalid;
  for (const auto& metric : metrics) {
    if (!is_valid(metric))
      invalid.push_back(metric);
  }
  if (!invalid.empty()) {
    std::string advice;
    for (const auto& name : invalid) {
      advice += (advice.empty() ? "" : "; ") + std::string("for '") + name + "' did you mean " +
                quoted_list(suggestions(name)) + "?";
    }
    throw input_error({}, "metrics", "unknown metric " + quoted_list(invalid) + " for chip " + m_chip,
                      advice);
  }
  // A fresh host object: adding metrics changes it, and a failed add poisons it.
  detail::profiler_host host(m_chip);
  host.add_metrics(metrics);
  auto image = host.config_image();
  return detail::config_pass_count(image);
}

std::vector<std::string> metric_name_validator::supported_chips() {
  return detail::cupti_supported_chips();
}

}  // namespace counterguard
