// SPDX-License-Identifier: Apache-2.0
#include "detail/yaml_values.hpp"

#include <cmath>

namespace counterguard::detail {

parameter_value read_parameter_scalar(const yaml_reader& reader, const YAML::Node& node,
                                      const std::string& field, const std::string& what) {
  return std::visit([](const auto& value) { return parameter_value(value); },
                    reader.typed_scalar(node, field, what));
}

formula read_formula(const yaml_reader& reader, const YAML::Node& node, const std::string& field) {
  const parameter_value value = read_parameter_scalar(reader, node, field, "a number or a formula");
  if (value.is_number()) {
    if (!std::isfinite(value.as_double()))
      reader.fail(node, field, "the value must be finite, got '" + node.Scalar() + "'");
    // Keep the position so that later errors about this value can point at it.
    return formula::number(value.as_double(), reader.where(node), field);
  }
  return formula::parse(value.as_string(), reader.where(node), field);
}

}  // namespace counterguard::detail
