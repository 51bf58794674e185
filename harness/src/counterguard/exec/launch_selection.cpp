// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/launch_selection.hpp"

#include <algorithm>
#include <set>

namespace counterguard {

launch_selection::launch_selection(std::vector<exec_case_request> cases, const process_identity& process)
    : m_cases(std::move(cases)),
      m_applies(m_cases.size()),
      m_matches(m_cases.size(), 0),
      m_profiled(m_cases.size(), 0) {
  std::set<std::string> raw;
  for (std::size_t i = 0; i < m_cases.size(); ++i) {
    m_applies[i] = m_cases[i].selector.process.matches(process);
    if (m_applies[i])
      raw.insert(m_cases[i].raw_metrics.begin(), m_cases[i].raw_metrics.end());
  }
  m_process_raw_metrics.assign(raw.begin(), raw.end());
}

bool launch_selection::any_case_applies() const {
  return std::find(m_applies.begin(), m_applies.end(), true) != m_applies.end();
}

std::optional<std::int64_t> launch_selection::bounded_launches_to_come() const {
  std::int64_t to_come = 0;
  for (std::size_t i = 0; i < m_cases.size(); ++i) {
    if (!m_applies[i])
      continue;
    const launch_selector& selector = m_cases[i].selector;
    if (!selector.launch_count)
      return std::nullopt;
    to_come += std::max<std::int64_t>(0, selector.profiled_limit() - m_profiled[i]);
  }
  return to_come;
}

launch_selection::decision launch_selection::decide(const kernel_names& names, const nvtx_context& context) {
  decision result;
  auto cached = m_kernel_matches.find(names.mangled);
  if (cached == m_kernel_matches.end()) {
    std::vector<bool> kernel_matches(m_cases.size());
    for (std::size_t i = 0; i < m_cases.size(); ++i)
      kernel_matches[i] = m_applies[i] && m_cases[i].selector.matches_kernel(names);
    cached = m_kernel_matches.emplace(names.mangled, std::move(kernel_matches)).first;
  }
  std::set<std::string> raw;
  for (std::size_t i = 0; i < m_cases.size(); ++i) {
    const launch_selector& selector = m_cases[i].selector;
    if (!cached->second[i] || (selector.nvtx && !selector.nvtx->matches(context)))
      continue;
    const std::int64_t ordinal = m_matches[i]++;
    if (ordinal < selector.launch_skip || m_profiled[i] >= selector.profiled_limit())
      continue;
    ++m_profiled[i];
    result.cases.push_back(i);
    result.ordinals.push_back(ordinal);
    raw.insert(m_cases[i].raw_metrics.begin(), m_cases[i].raw_metrics.end());
    result.own_configuration = result.own_configuration || m_cases[i].own_configuration;
  }
  result.raw_metrics.assign(raw.begin(), raw.end());
  return result;
}

}  // namespace counterguard
