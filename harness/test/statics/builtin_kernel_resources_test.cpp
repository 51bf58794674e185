// Ties every built-in kernel variant to the compiler's report, so a misspelt .launches() name or a kernel
// compiled outside counterguard_add_kernels fails here instead of silently passing static checks.
#include <gtest/gtest.h>

#include "counterguard/build_info.hpp"
#include "counterguard/measurement/case_measurement.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/statics/embedded_resource_report.hpp"

namespace counterguard {
namespace {

TEST(builtin_kernels, every_variant_launches_at_least_one_device_function) {
  ASSERT_FALSE(kernel_registry::global().definitions().empty());
  for (const auto& definition : kernel_registry::global().definitions()) {
    EXPECT_FALSE(definition.device_functions().empty()) << definition.name();
  }
}

TEST(builtin_kernels, every_device_function_has_a_compiler_report_for_the_target) {
  for (const auto& definition : kernel_registry::global().definitions()) {
    for (const auto& function : definition.device_functions()) {
      const kernel_resources* resources = find_kernel_resources(embedded_kernel_resources(), function);
      ASSERT_NE(resources, nullptr) << definition.name() << " launches " << function
                                    << ", which no report names";
      EXPECT_EQ(resources->architecture, COUNTERGUARD_CUDA_ARCHITECTURE) << function;
      EXPECT_GT(resources->registers, 0) << function;
    }
  }
}

TEST(builtin_kernels, the_register_limited_spill_variant_really_spills) {
  bool spilled = false;
  for (const auto& kernel : embedded_kernel_resources())
    spilled = spilled || kernel.spill_store_bytes > 0;
  EXPECT_TRUE(spilled) << "no built-in kernel spills: the spills suite lost its lesson";
}

}  // namespace
}  // namespace counterguard
