// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/exec_phase_trace.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace counterguard {
namespace {

TEST(exec_phase_trace, times_each_step_since_the_one_before) {
  exec_phase_trace steps(true);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  steps.phase("cases");
  steps.phase("device count");
  ASSERT_EQ(steps.phases().size(), 2U);
  EXPECT_EQ(steps.phases()[0].first, "cases");
  EXPECT_GE(steps.phases()[0].second, 30.0);
  EXPECT_EQ(steps.phases()[1].first, "device count");
  EXPECT_LT(steps.phases()[1].second, 30.0);
  const std::string summary = steps.summary();
  EXPECT_EQ(summary.rfind("exec steps: cases ", 0), 0U) << summary;
  EXPECT_NE(summary.find(", device count "), std::string::npos) << summary;
  EXPECT_NE(summary.find("; total "), std::string::npos) << summary;
}

TEST(exec_phase_trace, records_nothing_when_disabled) {
  exec_phase_trace steps(false);
  steps.phase("cases");
  EXPECT_FALSE(steps.enabled());
  EXPECT_TRUE(steps.phases().empty());
  EXPECT_EQ(steps.summary(), "exec steps:; total 0.0 ms");
}

}  // namespace
}  // namespace counterguard
