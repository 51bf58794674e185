// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace counterguard {

// With COUNTERGUARD_INJECTION_TRACE=1, `counterguard exec` says on stderr how long each of its own steps took
// (reading the cases, the device query, the GPU locks, the program, loading the recording, static resources,
// evaluation, reports), next to the injection library's per-launch trace: where exec's overhead over the
// program goes. Disabled, it records nothing and prints nothing.
class exec_phase_trace {
 public:
  explicit exec_phase_trace(bool enabled);
  // Enabled when COUNTERGUARD_INJECTION_TRACE is set to something other than "" and "0".
  [[nodiscard]] static exec_phase_trace from_environment();

  // Ends the step that ran since the last call (or since construction), under `name`, and prints it.
  void phase(const std::string& name);
  [[nodiscard]] bool enabled() const { return m_enabled; }
  // The steps so far, in milliseconds.
  [[nodiscard]] const std::vector<std::pair<std::string, double>>& phases() const { return m_phases; }
  // "exec steps: cases 3.1 ms, device query 120.3 ms, ...; total 812.0 ms"
  [[nodiscard]] std::string summary() const;

 private:
  bool m_enabled = false;
  std::chrono::steady_clock::time_point m_last;
  std::vector<std::pair<std::string, double>> m_phases;
};

}  // namespace counterguard
