// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "counterguard/core/yaml_reader.hpp"
#include "counterguard/model/formula.hpp"
#include "counterguard/model/parameter_value.hpp"

namespace counterguard::detail {

// A scalar as a parameter value: a plain integer (2048, -3, 0x20) is an integer, a plain real number
// (0.5, 1e-3, .inf) a number, anything else (row_major, a quoted "2048") a string.
[[nodiscard]] parameter_value read_parameter_scalar(const yaml_reader& reader, const YAML::Node& node,
                                                    const std::string& field, const std::string& what);

// A YAML number as a constant formula, or a string parsed as an expression.
[[nodiscard]] formula read_formula(const yaml_reader& reader, const YAML::Node& node,
                                   const std::string& field);

}  // namespace counterguard::detail
