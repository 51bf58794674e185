// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/nvtx_tracker.hpp"

#include <algorithm>

namespace counterguard {

void nvtx_registry::name_domain(std::uintptr_t domain, std::string name) {
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_domains[domain] = std::move(name);
}

std::string nvtx_registry::domain_name(std::uintptr_t domain) const {
  if (domain == 0)
    return {};
  const std::lock_guard<std::mutex> lock(m_mutex);
  const auto found = m_domains.find(domain);
  return found == m_domains.end() ? std::string() : found->second;
}

void nvtx_registry::register_string(std::uintptr_t handle, std::string text) {
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_strings[handle] = std::move(text);
}

std::string nvtx_registry::registered_string(std::uintptr_t handle) const {
  const std::lock_guard<std::mutex> lock(m_mutex);
  const auto found = m_strings.find(handle);
  return found == m_strings.end() ? std::string("<unregistered string>") : found->second;
}

void nvtx_registry::start_range(std::uint64_t id, std::uintptr_t domain, std::string name) {
  std::string domain_text = domain_name(domain);
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_open[id] = nvtx_context::open_range{std::move(domain_text), std::move(name)};
}

void nvtx_registry::end_range(std::uint64_t id) {
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_open.erase(id);
}

std::vector<nvtx_context::open_range> nvtx_registry::open_ranges() const {
  const std::lock_guard<std::mutex> lock(m_mutex);
  std::vector<nvtx_context::open_range> ranges;
  ranges.reserve(m_open.size());
  for (const auto& [id, range] : m_open)
    ranges.push_back(range);
  return ranges;
}

void nvtx_thread_stacks::push(const std::string& domain, std::string name) {
  auto found = std::find_if(m_stacks.begin(), m_stacks.end(),
                            [&](const nvtx_context::domain_stack& stack) { return stack.domain == domain; });
  if (found == m_stacks.end()) {
    m_stacks.push_back({domain, {}});
    found = std::prev(m_stacks.end());
  }
  found->ranges.push_back(std::move(name));
}

void nvtx_thread_stacks::pop(const std::string& domain) {
  const auto found =
      std::find_if(m_stacks.begin(), m_stacks.end(),
                   [&](const nvtx_context::domain_stack& stack) { return stack.domain == domain; });
  if (found != m_stacks.end() && !found->ranges.empty())
    found->ranges.pop_back();
}

nvtx_context nvtx_thread_stacks::snapshot(const nvtx_registry& registry) const {
  nvtx_context context;
  for (const auto& stack : m_stacks) {
    if (!stack.ranges.empty())
      context.stacks.push_back(stack);
  }
  context.start_end = registry.open_ranges();
  return context;
}

}  // namespace counterguard
