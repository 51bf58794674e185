// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace counterguard {

// A case parameter: an integer (kept exact), a real number or a string.
class parameter_value {
 public:
  parameter_value() = default;
  parameter_value(std::int64_t value) : m_value(value) {}              // NOLINT(google-explicit-constructor)
  parameter_value(int value) : m_value(std::int64_t{value}) {}         // NOLINT(google-explicit-constructor)
  parameter_value(double value) : m_value(value) {}                    // NOLINT(google-explicit-constructor)
  parameter_value(std::string value) : m_value(std::move(value)) {}    // NOLINT(google-explicit-constructor)
  parameter_value(const char* value) : m_value(std::string(value)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool is_integer() const { return std::holds_alternative<std::int64_t>(m_value); }
  [[nodiscard]] bool is_number() const { return !std::holds_alternative<std::string>(m_value); }
  [[nodiscard]] bool is_string() const { return std::holds_alternative<std::string>(m_value); }
  [[nodiscard]] std::int64_t as_integer() const;  // throws internal_error when not an integer
  [[nodiscard]] double as_double() const;         // throws internal_error when a string
  [[nodiscard]] const std::string& as_string() const;
  // The spelling used in case instance names and reports: 2048, 0.5, row_major.
  [[nodiscard]] std::string to_string() const;
  // "integer", "number" or "string", for error messages.
  [[nodiscard]] const char* type_name() const;

  friend bool operator==(const parameter_value& a, const parameter_value& b) {
    return a.m_value == b.m_value;
  }
  friend bool operator!=(const parameter_value& a, const parameter_value& b) { return !(a == b); }

 private:
  std::variant<std::int64_t, double, std::string> m_value{std::int64_t{0}};
};

// Parameters in their declared order (instance names list axes in that order).
using parameter_list = std::vector<std::pair<std::string, parameter_value>>;

// The value named `name`, or nullptr.
[[nodiscard]] const parameter_value* find_parameter(const parameter_list& parameters,
                                                    const std::string& name);

}  // namespace counterguard
