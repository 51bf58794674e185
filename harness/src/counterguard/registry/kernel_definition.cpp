// SPDX-License-Identifier: Apache-2.0
#include "counterguard/registry/kernel_definition.hpp"

#include "counterguard/core/error.hpp"

namespace counterguard {

kernel_definition::kernel_definition(std::string name) {
  m_signature.name = std::move(name);
}

kernel_definition& kernel_definition::describe(std::string description) {
  m_signature.description = std::move(description);
  return *this;
}

kernel_definition& kernel_definition::launches(std::string device_function) {
  m_device_functions.push_back(std::move(device_function));
  return *this;
}

kernel_definition& kernel_definition::parameter(std::string name, parameter_value default_value,
                                                std::string description, value_range allowed) {
  if (find_parameter(name) != nullptr) {
    throw registration_error("kernel '" + m_signature.name + "' declares parameter '" + name + "' twice");
  }
  if (const std::string violation = allowed.violation(default_value); !violation.empty()) {
    throw registration_error("kernel '" + m_signature.name + "' parameter '" + name +
                             "': the default is outside the declared range: " + violation);
  }
  m_signature.parameters.push_back(
      {std::move(name), std::move(default_value), std::move(description), std::move(allowed)});
  return *this;
}

kernel_definition& kernel_definition::block_size(value_range allowed) {
  m_signature.block_size = std::move(allowed);
  return *this;
}

kernel_definition& kernel_definition::require(std::string description,
                                              std::function<bool(const kernel_arguments&)> holds) {
  m_signature.requirements.push_back(
      {std::move(description),
       [holds = std::move(holds)](const parameter_list& parameters, const resolved_launch& launch) {
         return holds(kernel_arguments(parameters, launch));
       }});
  return *this;
}

kernel_definition& kernel_definition::min_compute_capability(int capability) {
  m_min_compute_capability = capability;
  return *this;
}

kernel_definition& kernel_definition::factory(kernel_factory make) {
  m_factory = std::move(make);
  return *this;
}

const parameter_spec* kernel_definition::find_parameter(const std::string& name) const {
  return m_signature.find_parameter(name);
}

std::unique_ptr<kernel_run> kernel_definition::create(const kernel_arguments& arguments) const {
  if (!m_factory)
    throw registration_error("kernel '" + m_signature.name + "' was registered without a factory");
  return m_factory(arguments);
}

}  // namespace counterguard
