// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/kernel_signature.hpp"

#include <cmath>

#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/core/value_format.hpp"

namespace counterguard {

value_range& value_range::multiple_of(std::int64_t divisor) {
  step = divisor;
  return *this;
}

value_range range(double minimum, double maximum) {
  value_range allowed;
  allowed.minimum = minimum;
  allowed.maximum = maximum;
  return allowed;
}

value_range at_least(double minimum) {
  value_range allowed;
  allowed.minimum = minimum;
  return allowed;
}

value_range at_most(double maximum) {
  value_range allowed;
  allowed.maximum = maximum;
  return allowed;
}

value_range multiple_of(std::int64_t divisor) {
  value_range allowed;
  allowed.step = divisor;
  return allowed;
}

value_range one_of(std::vector<std::string> choices) {
  value_range allowed;
  allowed.choices = std::move(choices);
  return allowed;
}

bool value_range::is_unconstrained() const {
  return !minimum && !maximum && !step && choices.empty();
}

std::string value_range::describe() const {
  std::string text;
  if (!choices.empty())
    return "one of " + quoted_list(choices);
  if (step)
    text = "a multiple of " + std::to_string(*step);
  if (minimum && maximum) {
    text += (text.empty() ? "" : " ") + std::string("in [") + format_value(*minimum) + ", " +
            format_value(*maximum) + "]";
  } else if (minimum) {
    text += (text.empty() ? "" : ", ") + std::string("at least ") + format_value(*minimum);
  } else if (maximum) {
    text += (text.empty() ? "" : ", ") + std::string("at most ") + format_value(*maximum);
  }
  return text;
}

std::string value_range::violation(const parameter_value& value) const {
  if (value.is_string()) {
    if (choices.empty())
      return {};
    for (const auto& choice : choices) {
      if (choice == value.as_string())
        return {};
    }
    return "'" + value.as_string() + "' is not " + describe();
  }
  const double number = value.as_double();
  if (std::isnan(number))
    return "the value is not a number";
  if (minimum && number < *minimum)
    return value.to_string() + " is below the minimum " + format_value(*minimum);
  if (maximum && number > *maximum)
    return value.to_string() + " is above the maximum " + format_value(*maximum);
  if (step && *step != 0 && (!value.is_integer() || value.as_integer() % *step != 0))
    return value.to_string() + " is not a multiple of " + std::to_string(*step);
  return {};
}

const parameter_spec* kernel_signature::find_parameter(const std::string& parameter) const {
  for (const auto& spec : parameters) {
    if (spec.name == parameter)
      return &spec;
  }
  return nullptr;
}

}  // namespace counterguard
