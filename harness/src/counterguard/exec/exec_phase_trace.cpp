// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/exec_phase_trace.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace counterguard {

exec_phase_trace::exec_phase_trace(bool enabled)
    : m_enabled(enabled), m_last(std::chrono::steady_clock::now()) {}

exec_phase_trace exec_phase_trace::from_environment() {
  const char* value = std::getenv("COUNTERGUARD_INJECTION_TRACE");
  return exec_phase_trace(value != nullptr && *value != '\0' && std::string(value) != "0");
}

void exec_phase_trace::phase(const std::string& name) {
  if (!m_enabled)
    return;
  const auto now = std::chrono::steady_clock::now();
  const double milliseconds = std::chrono::duration<double, std::milli>(now - m_last).count();
  m_last = now;
  m_phases.emplace_back(name, milliseconds);
  std::fprintf(stderr, "counterguard exec trace: %s %.1f ms\n", name.c_str(), milliseconds);
}

std::string exec_phase_trace::summary() const {
  std::string text = "exec steps:";
  double total = 0.0;
  for (std::size_t i = 0; i < m_phases.size(); ++i) {
    text += fmt::format("{} {} {:.1f} ms", i == 0 ? "" : ",", m_phases[i].first, m_phases[i].second);
    total += m_phases[i].second;
  }
  return text + fmt::format("; total {:.1f} ms", total);
}

}  // namespace counterguard
