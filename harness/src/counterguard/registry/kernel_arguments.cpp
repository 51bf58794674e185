// SPDX-License-Identifier: Apache-2.0
#include "counterguard/registry/kernel_arguments.hpp"

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

const parameter_value& require(const parameter_list& parameters, const std::string& name) {
  const parameter_value* value = find_parameter(parameters, name);
  if (value == nullptr)
    throw registration_error("the launcher asks for parameter '" + name +
                             "', which its kernel does not declare (add .parameter(\"" + name + "\", ...))");
  return *value;
}

}  // namespace

std::int64_t kernel_arguments::integer(const std::string& name) const {
  const parameter_value& value = require(m_parameters, name);
  if (!value.is_integer()) {
    throw registration_error("kernel parameter '" + name + "' is a " + value.type_name() +
                             ", not an integer");
  }
  return value.as_integer();
}

double kernel_arguments::number(const std::string& name) const {
  const parameter_value& value = require(m_parameters, name);
  if (!value.is_number())
    throw registration_error("kernel parameter '" + name + "' is not a number");
  return value.as_double();
}

const std::string& kernel_arguments::text(const std::string& name) const {
  const parameter_value& value = require(m_parameters, name);
  if (!value.is_string())
    throw registration_error("kernel parameter '" + name + "' is not a string");
  return value.as_string();
}

}  // namespace counterguard
