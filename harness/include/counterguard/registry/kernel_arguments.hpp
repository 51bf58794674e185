// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "counterguard/model/launch_spec.hpp"
#include "counterguard/model/parameter_value.hpp"

namespace counterguard {

// What a launcher receives: the case instance's parameters (kernel defaults filled in) and launch settings.
class kernel_arguments {
 public:
  kernel_arguments(parameter_list parameters, resolved_launch launch)
      : m_parameters(std::move(parameters)), m_launch(launch) {}

  // Throw registration_error naming the parameter when the kernel did not declare it, or declared it with
  // another type.
  [[nodiscard]] std::int64_t integer(const std::string& name) const;
  [[nodiscard]] double number(const std::string& name) const;
  [[nodiscard]] const std::string& text(const std::string& name) const;

  // Whether the case instance has the parameter (variants of one launcher may declare different ones).
  [[nodiscard]] bool has(const std::string& name) const {
    return find_parameter(m_parameters, name) != nullptr;
  }
  [[nodiscard]] const parameter_list& parameters() const { return m_parameters; }
  [[nodiscard]] const resolved_launch& launch() const { return m_launch; }
  // The case's block size when set, else `fallback`.
  [[nodiscard]] unsigned block_x(unsigned fallback) const {
    return m_launch.has_block() ? m_launch.block[0] : fallback;
  }

 private:
  parameter_list m_parameters;
  resolved_launch m_launch;
};

}  // namespace counterguard
