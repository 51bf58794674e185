// SPDX-License-Identifier: Apache-2.0
#pragma once
// counterguard inside a GoogleTest binary: profile the kernels a piece of test code launches and assert on
// their counters, with the same metric names, the same instrumented/hardware choice, the same per-kernel
// attribution and the same measurement path as `counterguard run`. Link counterguard::gtest; link the kernels
// with counterguard_link_kernels(<test> KERNELS <lib>) for the compiler's metrics (spills, registers, stack).
//
//   TEST(reduce, shared_tree_is_conflict_free) {
//     COUNTERGUARD_SKIP_UNLESS_PROFILING();
//     const auto m = counterguard::profile({"shared_load_bank_conflicts", "spill_store_bytes"},
//                                          [&] { reduce<<<blocks, 256>>>(in, out, n); });
//     COUNTERGUARD_EXPECT_METRIC_EQ(m, "shared_load_bank_conflicts", 0);
//     COUNTERGUARD_EXPECT_METRIC_EQ(m.for_kernel("reduce"), "spill_store_bytes", 0);
//   }
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/in_process/profile_result.hpp"

// The GoogleTest glue is inline: it compiles with the GoogleTest the test binary links, whatever its version.
// profile_options, profile_result, profiling_unavailable() and profiled_by_exec() come from
// counterguard/in_process (the Python package profiles through the same code).
namespace counterguard {

// Profiles the kernels `work` launches. `metrics` are aliases (docs/metrics.md) or raw CUPTI names; an
// unknown name throws input_error. Where profiling is not possible (no GPU, no permission, the GPU held past
// the wait) the current test is marked skipped with the reason and the result is skipped(): the assertion
// macros below then assert nothing. Under `counterguard exec` (profiled_by_exec()) the work runs unprofiled
// (the injection library profiles the launches its cases select) and the test is marked skipped for its
// counters.
[[nodiscard]] inline profile_result profile(const std::vector<std::string>& metrics,
                                            const std::function<void()>& work,
                                            const profile_options& options = {}) {
  profile_result result = profile_work(metrics, work, options);
  if (result.skipped())
    GTEST_MESSAGE_AT_(nullptr, -1, result.skip_reason().c_str(), ::testing::TestPartResult::kSkip);
  return result;
}

// A fixture whose tests are skipped, with the reason, where profiling is not possible (not under exec: the
// test's own checks still run there).
class profiling_test : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const auto why = profiling_unavailable(); why && !profiled_by_exec())
      GTEST_SKIP() << *why;
  }
};

// The assertion behind the COUNTERGUARD_EXPECT_METRIC_* macros (metric_check_failure as a GoogleTest result).
inline ::testing::AssertionResult check_metric(const char* result_text, const char* metric_text,
                                               const char* bound_text, const profile_result& result,
                                               const std::string& metric, double bound,
                                               metric_relation relation, double relative_tolerance = 0.0) {
  if (const std::optional<std::string> failure = metric_check_failure(
          result_text, metric_text, bound_text, result, metric, bound, relation, relative_tolerance))
    return ::testing::AssertionFailure() << *failure;
  return ::testing::AssertionSuccess();
}

}  // namespace counterguard

// Skips the current test, with the reason, where profiling is not possible.
#define COUNTERGUARD_SKIP_UNLESS_PROFILING()                                          \
  if (const auto counterguard_unavailable_ = ::counterguard::profiling_unavailable(); \
      counterguard_unavailable_ && !::counterguard::profiled_by_exec())               \
  GTEST_SKIP() << *counterguard_unavailable_

// Assertions that print the metric, the bound, the measured value, its class and the kernels measured.
#define COUNTERGUARD_EXPECT_METRIC_EQ(result, metric, expected)                                   \
  EXPECT_TRUE(::counterguard::check_metric(#result, #metric, #expected, result, metric, expected, \
                                           ::counterguard::metric_relation::equal))
#define COUNTERGUARD_EXPECT_METRIC_LE(result, metric, bound)                                \
  EXPECT_TRUE(::counterguard::check_metric(#result, #metric, #bound, result, metric, bound, \
                                           ::counterguard::metric_relation::at_most))
#define COUNTERGUARD_EXPECT_METRIC_GE(result, metric, bound)                                \
  EXPECT_TRUE(::counterguard::check_metric(#result, #metric, #bound, result, metric, bound, \
                                           ::counterguard::metric_relation::at_least))
#define COUNTERGUARD_EXPECT_METRIC_NEAR(result, metric, expected, relative_tolerance)             \
  EXPECT_TRUE(::counterguard::check_metric(#result, #metric, #expected, result, metric, expected, \
                                           ::counterguard::metric_relation::near, relative_tolerance))
