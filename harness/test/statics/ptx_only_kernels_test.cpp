// SPDX-License-Identifier: Apache-2.0
// The kernels a binary holds only as PTX (a `90-virtual` build), which is what explains a kernel without
// resources; and how `static` explains a device function it has no report for.
#include <gtest/gtest.h>

#include <algorithm>

#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/pipeline/static_checks.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/statics/binary_resources.hpp"

namespace counterguard {
namespace {

bool has(const std::vector<ptx_only_kernel>& kernels, const std::string& function) {
  return std::any_of(kernels.begin(), kernels.end(), [&](const ptx_only_kernel& k) {
    return k.function == function && k.architecture == 90;
  });
}

TEST(ptx_only_kernels, of_a_virtual_architecture_build_are_its_kernels_demangled_with_their_architecture) {
  const std::vector<ptx_only_kernel> kernels = read_ptx_only_kernels(PROBE_PTX_ONLY);
  EXPECT_TRUE(has(kernels, "probe_spills"));
  EXPECT_TRUE(has(kernels, "probe::scaled<3>"));
}

TEST(ptx_only_kernels, are_none_where_a_cubin_defines_every_kernel_beside_its_ptx) {
  EXPECT_TRUE(read_ptx_only_kernels(PROBE_MULTIARCH).empty());
}

TEST(static_results, a_misspelled_launches_name_is_an_error_naming_the_closest_kernels_of_the_program) {
  // Registered here, not at start-up: builtin_kernel_resources_test checks every registered variant (ctest
  // runs each test in a process of its own).
  kernel_registry::global().add("test/misspelled").launches("counterguard::kernels::transpose::naiv");
  case_instance instance;
  instance.suite = "test";
  instance.case_name = "misspelled";
  instance.name = "test/misspelled";
  instance.kernel = "test/misspelled";
  const run_results results = static_results({instance}, "static");
  ASSERT_EQ(results.cases.size(), 1U);
  const case_result& result = results.cases.front();
  EXPECT_EQ(result.status, case_status::error);
  EXPECT_NE(
      result.status_reason.find("no kernel named 'counterguard::kernels::transpose::naiv' in this program"),
      std::string::npos)
      << result.status_reason;
  EXPECT_NE(result.status_reason.find("did you mean 'counterguard::kernels::transpose::naive'"),
            std::string::npos)
      << result.status_reason;
  EXPECT_NE(result.status_reason.find("static --binary"), std::string::npos) << result.status_reason;
}

}  // namespace
}  // namespace counterguard
