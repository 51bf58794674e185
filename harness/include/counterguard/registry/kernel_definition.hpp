#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/model/parameter_value.hpp"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_run.hpp"

namespace counterguard {

// A parameter a kernel variant accepts; its default also fixes its type.
struct parameter_spec {
  std::string name;
  parameter_value default_value;
  std::string description;
};

using kernel_factory = std::function<std::unique_ptr<kernel_run>(const kernel_arguments&)>;

// A registered kernel variant. Built with chained setters at registration:
//   COUNTERGUARD_REGISTER_KERNEL("coalescing/vec_add")
//       .describe("c[i] = a[i] + b[i], one element per thread")
//       .launches("counterguard::kernels::coalescing::vec_add")
//       .parameter("n", std::int64_t{1} << 22, "elements")
//       .factory([](const counterguard::kernel_arguments& a) { return std::make_unique<vec_add_run>(a); });
class kernel_definition {
 public:
  explicit kernel_definition(std::string name) : m_name(std::move(name)) {}

  kernel_definition& describe(std::string description);
  // A device function this variant launches, by its qualified name without parameters, as demangled
  // (e.g. "counterguard::kernels::transpose::smem_tile<32, 33>"). Ties the variant to the compiler's
  // resource report and to profiled ranges.
  kernel_definition& launches(std::string device_function);
  kernel_definition& parameter(std::string name, parameter_value default_value, std::string description = {});
  // Compute capability as major*10+minor (90 = sm_90). Older GPUs report the case as skipped.
  kernel_definition& min_compute_capability(int capability);
  kernel_definition& factory(kernel_factory make);

  [[nodiscard]] const std::string& name() const { return m_name; }
  [[nodiscard]] const std::string& description() const { return m_description; }
  [[nodiscard]] const std::vector<std::string>& device_functions() const { return m_device_functions; }
  [[nodiscard]] const std::vector<parameter_spec>& parameters() const { return m_parameters; }
  [[nodiscard]] const parameter_spec* find_parameter(const std::string& name) const;
  [[nodiscard]] int required_compute_capability() const { return m_min_compute_capability; }
  [[nodiscard]] std::unique_ptr<kernel_run> create(const kernel_arguments& arguments) const;

 private:
  std::string m_name;
  std::string m_description;
  std::vector<std::string> m_device_functions;
  std::vector<parameter_spec> m_parameters;
  int m_min_compute_capability = 0;
  kernel_factory m_factory;
};

}  // namespace counterguard
