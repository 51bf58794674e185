// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "counterguard/registry/kernel_definition.hpp"

namespace counterguard {

// Every kernel variant linked into this runner, built-in or the user's own, by name.
class kernel_registry final : public kernel_catalog {
 public:
  // The registry that COUNTERGUARD_REGISTER_KERNEL adds to.
  [[nodiscard]] static kernel_registry& global();

  // Adds a variant and returns it for chained setup. Throws registration_error on a duplicate name.
  kernel_definition& add(std::string name);
  [[nodiscard]] const kernel_definition* find(const std::string& name) const;
  [[nodiscard]] std::vector<std::string> names() const;  // sorted

  [[nodiscard]] const kernel_signature* find_signature(const std::string& name) const override;
  [[nodiscard]] std::vector<std::string> kernel_names() const override { return names(); }
  [[nodiscard]] const std::deque<kernel_definition>& definitions() const { return m_definitions; }

 private:
  std::deque<kernel_definition> m_definitions;  // a deque keeps references stable as variants are added
};

}  // namespace counterguard

#define COUNTERGUARD_DETAIL_CONCAT2(a, b) a##b
#define COUNTERGUARD_DETAIL_CONCAT(a, b) COUNTERGUARD_DETAIL_CONCAT2(a, b)

// Registers a kernel variant at static initialisation; chain kernel_definition setters after it.
// The expansion is a declaration, which cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define COUNTERGUARD_REGISTER_KERNEL(name)                                               \
  [[maybe_unused]] static ::counterguard::kernel_definition& COUNTERGUARD_DETAIL_CONCAT( \
      counterguard_kernel_registration_, __LINE__) = ::counterguard::kernel_registry::global().add(name)
// NOLINTEND(bugprone-macro-parentheses)
