// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "counterguard/model/launch_context.hpp"

namespace counterguard {

// What NVTX calls a process made, so that each kernel launch can be matched against NVTX selectors: the names
// of domains and registered strings (process-wide), the open start/end ranges (process-wide) and each
// thread's push/pop stacks, one per domain. The injection library feeds it from CUPTI's NVTX callbacks;
// handles are the NVTX handles as integers.
class nvtx_registry {
 public:
  void name_domain(std::uintptr_t domain, std::string name);
  // The domain's name; "" for the default domain (handle 0) and for a domain it never saw created.
  [[nodiscard]] std::string domain_name(std::uintptr_t domain) const;
  void register_string(std::uintptr_t handle, std::string text);
  // The registered string's text; "<unregistered string>" for a handle it never saw.
  [[nodiscard]] std::string registered_string(std::uintptr_t handle) const;

  void start_range(std::uint64_t id, std::uintptr_t domain, std::string name);
  void end_range(std::uint64_t id);
  [[nodiscard]] std::vector<nvtx_context::open_range> open_ranges() const;

 private:
  mutable std::mutex m_mutex;
  std::map<std::uintptr_t, std::string> m_domains;
  std::map<std::uintptr_t, std::string> m_strings;
  std::map<std::uint64_t, nvtx_context::open_range> m_open;
};

// One thread's push/pop ranges, one stack per domain.
class nvtx_thread_stacks {
 public:
  void push(const std::string& domain, std::string name);
  // A pop with nothing open in the domain is ignored, as NVTX does.
  void pop(const std::string& domain);
  // The ranges open on this thread plus the process's start/end ranges.
  [[nodiscard]] nvtx_context snapshot(const nvtx_registry& registry) const;

 private:
  std::vector<nvtx_context::domain_stack> m_stacks;
};

}  // namespace counterguard
