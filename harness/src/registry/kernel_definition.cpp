#include "counterguard/registry/kernel_definition.hpp"

#include <stdexcept>

namespace counterguard {

kernel_definition& kernel_definition::describe(std::string description) {
  m_description = std::move(description);
  return *this;
}

kernel_definition& kernel_definition::launches(std::string device_function) {
  m_device_functions.push_back(std::move(device_function));
  return *this;
}

kernel_definition& kernel_definition::parameter(std::string name, parameter_value default_value,
                                                std::string description) {
  if (find_parameter(name) != nullptr) {
    throw std::logic_error("kernel '" + m_name + "' declares parameter '" + name + "' twice");
  }
  m_parameters.push_back({std::move(name), std::move(default_value), std::move(description)});
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
  for (const auto& spec : m_parameters) {
    if (spec.name == name)
      return &spec;
  }
  return nullptr;
}

std::unique_ptr<kernel_run> kernel_definition::create(const kernel_arguments& arguments) const {
  if (!m_factory)
    throw std::logic_error("kernel '" + m_name + "' was registered without a factory");
  return m_factory(arguments);
}

}  // namespace counterguard
