// SPDX-License-Identifier: Apache-2.0
// Ties every built-in kernel variant to the compiler's report, so a misspelt .launches() name or a kernel
// compiled outside counterguard_add_kernels fails here instead of silently passing static checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "counterguard/build_info.hpp"
#include "counterguard/measurement/fill_measurements.hpp"
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

TEST(builtin_kernels, every_device_function_has_a_compiler_report_for_every_target) {
  const std::vector<std::string> architectures = COUNTERGUARD_BUILTIN_ARCHITECTURES;
  ASSERT_FALSE(architectures.empty());
  const std::vector<kernel_resources>& reports = embedded_kernel_resources();
  for (const auto& definition : kernel_registry::global().definitions()) {
    for (const auto& function : definition.device_functions()) {
      ASSERT_NE(find_kernel_resources(reports, function), nullptr)
          << definition.name() << " launches " << function << ", which no report names";
      for (const auto& architecture : architectures) {
        const auto report = std::find_if(reports.begin(), reports.end(), [&](const kernel_resources& r) {
          return r.function == function && r.architecture == architecture;
        });
        ASSERT_NE(report, reports.end()) << function << " has no report for " << architecture;
        EXPECT_GT(report->registers, 0) << function << " on " << architecture;
      }
      for (const auto& report : reports) {
        if (report.function == function) {
          EXPECT_NE(std::find(architectures.begin(), architectures.end(), report.architecture),
                    architectures.end())
              << function << " reported for " << report.architecture << ", which is not a target";
        }
      }
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
