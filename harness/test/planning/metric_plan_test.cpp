// SPDX-License-Identifier: Apache-2.0
// What a block of named metrics measures: ncu's launch names are computed at the launch, never collected.
#include "counterguard/planning/metric_plan.hpp"

#include <gtest/gtest.h>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

TEST(metric_plan, ncus_launch_and_device_attribute_names_are_never_sent_to_cupti) {
  const std::vector<std::string> names{"launch__registers_per_thread",
                                       "device__attribute_multiprocessor_count", "global_load_requests"};
  const metric_plan plan = plan_metrics(names, metric_catalog::builtin());
  ASSERT_EQ(plan.metrics.size(), 3U);
  EXPECT_EQ(plan.raw_cupti, std::vector<std::string>{"smsp__sass_inst_executed_op_global_ld.sum"});
}

TEST(metric_plan, an_unknown_ncu_launch_name_is_an_input_error_naming_the_closest) {
  try {
    static_cast<void>(
        plan_metrics(std::vector<std::string>{"launch__grid_sizes"}, metric_catalog::builtin()));
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_NE(e.valid().find("did you mean 'launch__grid_size'"), std::string::npos) << e.valid();
  }
}

TEST(metric_plan, a_refused_ncu_launch_name_is_an_input_error_giving_the_reason) {
  try {
    static_cast<void>(
        plan_metrics(std::vector<std::string>{"launch__function_pcs"}, metric_catalog::builtin()));
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("device addresses"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace counterguard
