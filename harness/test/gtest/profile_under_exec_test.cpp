// SPDX-License-Identifier: Apache-2.0
// counterguard::profile in a test binary that `counterguard exec` runs: the injection library is the
// process's one CUPTI profiler, so profile() must run the test's work unprofiled (its launches are what
// exec's cases select) and never open a profiler of its own. Every test of this binary runs as if under exec.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/gtest/profile.hpp"

namespace counterguard {
namespace {

// Set before any test (and so before the process's profiler is first asked for) runs.
const bool under_exec = ::setenv(exec_instructions_variable, "/nonexistent/instructions.json", 1) == 0;

TEST(profile_under_exec, runs_the_work_and_reports_the_counters_as_left_to_exec) {
  ASSERT_TRUE(under_exec);
  bool ran = false;
  ::testing::TestPartResultArray parts;
  profile_result result;
  {
    const ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &parts);
    result = profile({"shared_load_bank_conflicts"}, [&] { ran = true; });
  }
  EXPECT_TRUE(ran) << "the work must run: its kernel launches are what exec's cases measure";
  EXPECT_TRUE(result.skipped());
  EXPECT_FALSE(result.has("shared_load_bank_conflicts"));
  ASSERT_EQ(parts.size(), 1);
  EXPECT_EQ(parts.GetTestPartResult(0).type(), ::testing::TestPartResult::kSkip);
  EXPECT_NE(std::string(parts.GetTestPartResult(0).message()).find("counterguard exec"), std::string::npos)
      << parts.GetTestPartResult(0).message();
}

TEST(profile_under_exec, metric_assertions_pass_through_so_the_tests_own_checks_decide) {
  ::testing::TestPartResultArray parts;
  profile_result result;
  {
    const ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &parts);
    result = profile({"shared_load_bank_conflicts"}, [] {});
  }
  EXPECT_TRUE(check_metric("m", "shared_load_bank_conflicts", "0", result, "shared_load_bank_conflicts", 0.0,
                           metric_relation::equal));
}

TEST(profile_under_exec, the_exec_state_is_reported) {
  EXPECT_TRUE(profiled_by_exec());
  ASSERT_TRUE(profiling_unavailable().has_value());
}

class profiling_fixture_under_exec : public profiling_test {};

TEST_F(profiling_fixture_under_exec, is_not_skipped_so_the_test_body_launches_its_kernels) {
  EXPECT_FALSE(::testing::Test::IsSkipped());
}

}  // namespace
}  // namespace counterguard
