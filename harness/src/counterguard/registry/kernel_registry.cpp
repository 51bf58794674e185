// SPDX-License-Identifier: Apache-2.0
#include "counterguard/registry/kernel_registry.hpp"

#include <algorithm>

#include "counterguard/core/error.hpp"

namespace counterguard {

kernel_registry& kernel_registry::global() {
  // Function-local so registrations from static initialisers in any translation unit find it constructed.
  static kernel_registry registry;
  return registry;
}

kernel_definition& kernel_registry::add(std::string name) {
  if (find(name) != nullptr)
    throw registration_error("kernel '" + name +
                             "' is registered twice (kernel names are unique in a runner)");
  return m_definitions.emplace_back(std::move(name));
}

const kernel_definition* kernel_registry::find(const std::string& name) const {
  for (const auto& definition : m_definitions) {
    if (definition.name() == name)
      return &definition;
  }
  return nullptr;
}

const kernel_signature* kernel_registry::find_signature(const std::string& name) const {
  const kernel_definition* definition = find(name);
  return definition == nullptr ? nullptr : &definition->signature();
}

std::vector<std::string> kernel_registry::names() const {
  std::vector<std::string> result;
  result.reserve(m_definitions.size());
  for (const auto& definition : m_definitions)
    result.push_back(definition.name());
  std::sort(result.begin(), result.end());
  return result;
}

}  // namespace counterguard
