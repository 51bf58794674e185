#include "counterguard/registry/kernel_arguments.hpp"

#include <stdexcept>

namespace counterguard {
namespace {

const parameter_value& require(const parameter_list& parameters, const std::string& name) {
  const parameter_value* value = find_parameter(parameters, name);
  if (value == nullptr)
    throw std::invalid_argument("kernel parameter '" + name + "' is not set");
  return *value;
}

}  // namespace

std::int64_t kernel_arguments::integer(const std::string& name) const {
  const parameter_value& value = require(m_parameters, name);
  if (!value.is_integer()) {
    throw std::invalid_argument("kernel parameter '" + name + "' is a " + value.type_name() +
                                ", not an integer");
  }
  return value.as_integer();
}

double kernel_arguments::number(const std::string& name) const {
  const parameter_value& value = require(m_parameters, name);
  if (!value.is_number())
    throw std::invalid_argument("kernel parameter '" + name + "' is not a number");
  return value.as_double();
}

const std::string& kernel_arguments::text(const std::string& name) const {
  const parameter_value& value = require(m_parameters, name);
  if (!value.is_string())
    throw std::invalid_argument("kernel parameter '" + name + "' is not a string");
  return value.as_string();
}

}  // namespace counterguard
