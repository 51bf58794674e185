// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/model/launch_spec.hpp"
#include "counterguard/model/parameter_value.hpp"

namespace counterguard {

// The values a kernel parameter (or the block size) allows, declared once at registration and checked when
// a suite is loaded, on any machine:
//   range(32, 8192).multiple_of(32)     one_of({"row_major", "column_major"})     at_least(1)
struct value_range {
  std::optional<double> minimum;     // inclusive
  std::optional<double> maximum;     // inclusive
  std::optional<std::int64_t> step;  // integers: the value is a multiple of it
  std::vector<std::string> choices;  // strings: one of these (empty: any)

  value_range& multiple_of(std::int64_t divisor);

  // Empty when `value` is allowed; else the problem ("8200 is above the maximum 8192").
  [[nodiscard]] std::string violation(const parameter_value& value) const;
  // "a multiple of 32 in [32, 8192]"; empty when anything goes.
  [[nodiscard]] std::string describe() const;
  [[nodiscard]] bool is_unconstrained() const;
};

[[nodiscard]] value_range range(double minimum, double maximum);
[[nodiscard]] value_range at_least(double minimum);
[[nodiscard]] value_range at_most(double maximum);
[[nodiscard]] value_range multiple_of(std::int64_t divisor);
[[nodiscard]] value_range one_of(std::vector<std::string> choices);

// A parameter a kernel variant accepts; its default also fixes its type.
struct parameter_spec {
  std::string name;
  parameter_value default_value;
  std::string description;
  value_range allowed;
};

// A condition on several parameters or on the launch ("n is a multiple of the block size"), checked for each
// case instance when the suite is expanded. `holds` returns whether the instance satisfies it.
struct kernel_requirement {
  std::string description;
  std::function<bool(const parameter_list&, const resolved_launch&)> holds;
};

// What the case model knows of a kernel variant: enough to validate a suite without running anything.
struct kernel_signature {
  std::string name;
  std::string description;
  std::vector<parameter_spec> parameters;
  value_range block_size;  // the case's block x dimension, when it sets one
  std::vector<kernel_requirement> requirements;

  [[nodiscard]] const parameter_spec* find_parameter(const std::string& parameter) const;
};

// Kernel variants by name, as a suite refers to them. The kernel registry is one; tests bring their own.
class kernel_catalog {
 public:
  kernel_catalog() = default;
  kernel_catalog(const kernel_catalog&) = default;
  kernel_catalog& operator=(const kernel_catalog&) = default;
  virtual ~kernel_catalog() = default;

  // The signature of `name`, or nullptr.
  [[nodiscard]] virtual const kernel_signature* find_signature(const std::string& name) const = 0;
  // Every name, sorted.
  [[nodiscard]] virtual std::vector<std::string> kernel_names() const = 0;
};

}  // namespace counterguard
