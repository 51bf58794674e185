// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/model/kernel_signature.hpp"
#include "counterguard/model/parameter_value.hpp"
#include "counterguard/registry/kernel_arguments.hpp"
#include "counterguard/registry/kernel_run.hpp"

namespace counterguard {

using kernel_factory = std::function<std::unique_ptr<kernel_run>(const kernel_arguments&)>;

// A registered kernel variant. Built with chained setters at registration:
//   COUNTERGUARD_REGISTER_KERNEL("transpose/smem")
//       .describe("transpose through a 32 x (32 + pad) shared tile")
//       .launches("counterguard::kernels::transpose::smem_tile")
//       .parameter("n", std::int64_t{2048}, "matrix side", range(32, 8192).multiple_of(32))
//       .parameter("pad", std::int64_t{1}, "floats of padding per tile row", range(0, 32))
//       .factory([](const counterguard::kernel_arguments& a) { return std::make_unique<transpose_run>(a); });
// Declared ranges and requirements are checked when a suite is loaded, on any machine, so a launcher can
// rely on them.
class kernel_definition {
 public:
  explicit kernel_definition(std::string name);

  kernel_definition& describe(std::string description);
  // A device function this variant launches, by its qualified name without parameters, as demangled
  // (e.g. "counterguard::kernels::transpose::smem_tile<32, 33>"). Ties the variant to the compiler's
  // resource report and to profiled ranges.
  kernel_definition& launches(std::string device_function);
  kernel_definition& parameter(std::string name, parameter_value default_value, std::string description = {},
                               value_range allowed = {});
  // The block sizes (x) the variant accepts when a case sets `launch.block`.
  kernel_definition& block_size(value_range allowed);
  // A condition over several parameters or the launch, e.g.
  //   .require("n is a multiple of the block size",
  //            [](const kernel_arguments& a) { return a.integer("n") % a.block_x(256) == 0; })
  kernel_definition& require(std::string description, std::function<bool(const kernel_arguments&)> holds);
  // Compute capability as major*10+minor (90 = sm_90). Older GPUs report the case as skipped.
  kernel_definition& min_compute_capability(int capability);
  kernel_definition& factory(kernel_factory make);

  [[nodiscard]] const std::string& name() const { return m_signature.name; }
  [[nodiscard]] const std::string& description() const { return m_signature.description; }
  [[nodiscard]] const kernel_signature& signature() const { return m_signature; }
  [[nodiscard]] const std::vector<std::string>& device_functions() const { return m_device_functions; }
  [[nodiscard]] const std::vector<parameter_spec>& parameters() const { return m_signature.parameters; }
  [[nodiscard]] const parameter_spec* find_parameter(const std::string& name) const;
  [[nodiscard]] int required_compute_capability() const { return m_min_compute_capability; }
  [[nodiscard]] std::unique_ptr<kernel_run> create(const kernel_arguments& arguments) const;

 private:
  kernel_signature m_signature;
  std::vector<std::string> m_device_functions;
  int m_min_compute_capability = 0;
  kernel_factory m_factory;
};

}  // namespace counterguard
