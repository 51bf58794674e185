// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "counterguard/exec/exec_instructions.hpp"

namespace counterguard {

// Decides, launch by launch in one process, which cases profile it: a case whose selector matches counts the
// launch as its next match (ordinal 0, 1, ...) and profiles it when the ordinal is past `launch_skip` and
// within the profiled limit. A launch no case wants runs unprofiled. Not thread-safe: the caller serialises.
class launch_selection {
 public:
  launch_selection(std::vector<exec_case_request> cases, const process_identity& process);

  struct decision {
    std::vector<std::size_t> cases;        // indices of the cases that profile this launch
    std::vector<std::int64_t> ordinals;    // its match ordinal in each of them
    std::vector<std::string> raw_metrics;  // the union of their counters, sorted, each once
    bool own_configuration = false;        // one of them keeps its own counters: profile with raw_metrics
    [[nodiscard]] bool profiled() const { return !cases.empty(); }
    // The counters to profile the launch with: its cases' own when one of them keeps its own configuration,
    // otherwise the process's one configuration (`process_raw_metrics`).
    [[nodiscard]] const std::vector<std::string>& configuration(
        const std::vector<std::string>& process) const {
      return own_configuration ? raw_metrics : process;
    }
  };
  [[nodiscard]] decision decide(const kernel_names& names, const nvtx_context& context);

  [[nodiscard]] const std::vector<exec_case_request>& cases() const { return m_cases; }
  // Matching launches seen so far by case `index`, and how many of them were profiled.
  [[nodiscard]] std::int64_t matches(std::size_t index) const { return m_matches.at(index); }
  [[nodiscard]] std::int64_t profiled(std::size_t index) const { return m_profiled.at(index); }
  // Whether this process can profile anything (a case applies to it).
  [[nodiscard]] bool any_case_applies() const;
  // At most how many launches are still to be profiled after those decided so far, when every case that
  // applies to this process gives its `launch_count`; nothing when one profiles up to its `max_launches`
  // only.
  [[nodiscard]] std::optional<std::int64_t> bounded_launches_to_come() const;
  // The counters of every case that applies to this process, sorted, each once: the profiler configuration
  // of every launch but those of cases that keep their own (decision::configuration). With the range profiler
  // a switch re-enables it (measured on an H200: 160-177 ms a switch, against 4-5 ms for a launch with the
  // configuration it has); in a profiling session it costs under 0.1 ms.
  [[nodiscard]] const std::vector<std::string>& process_raw_metrics() const { return m_process_raw_metrics; }

 private:
  std::vector<exec_case_request> m_cases;
  std::vector<bool> m_applies;  // per case: its process selector matches this process
  std::vector<std::int64_t> m_matches;
  std::vector<std::int64_t> m_profiled;
  std::vector<std::string> m_process_raw_metrics;
  // Per kernel (mangled name), whether each case's kernel pattern matches it: a program launches few kernels
  // many times, and patterns (regular expressions included) are matched once per kernel, not per launch.
  std::unordered_map<std::string, std::vector<bool>> m_kernel_matches;
};

}  // namespace counterguard
