// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/parameter_value.hpp"

#include <stdexcept>

#include "counterguard/core/error.hpp"
#include "counterguard/core/value_format.hpp"

namespace counterguard {

std::int64_t parameter_value::as_integer() const {
  if (const auto* value = std::get_if<std::int64_t>(&m_value))
    return *value;
  throw internal_error(std::string("parameter value is a ") + type_name() + ", not an integer");
}

double parameter_value::as_double() const {
  if (const auto* value = std::get_if<std::int64_t>(&m_value))
    return static_cast<double>(*value);
  if (const auto* value = std::get_if<double>(&m_value))
    return *value;
  throw internal_error("parameter value is a string, not a number");
}

const std::string& parameter_value::as_string() const {
  if (const auto* value = std::get_if<std::string>(&m_value))
    return *value;
  throw internal_error(std::string("parameter value is a ") + type_name() + ", not a string");
}

std::string parameter_value::to_string() const {
  if (const auto* value = std::get_if<std::int64_t>(&m_value))
    return std::to_string(*value);
  if (const auto* value = std::get_if<double>(&m_value))
    return format_value(*value);
  return std::get<std::string>(m_value);
}

const char* parameter_value::type_name() const {
  if (is_integer())
    return "integer";
  if (is_string())
    return "string";
  return "number";
}

const parameter_value* find_parameter(const parameter_list& parameters, const std::string& name) {
  for (const auto& [parameter_name, value] : parameters) {
    if (parameter_name == name)
      return &value;
  }
  return nullptr;
}

}  // namespace counterguard
