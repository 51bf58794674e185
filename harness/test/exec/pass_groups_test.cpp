// SPDX-License-Identifier: Apache-2.0
// Pass planning on the CPU: the CUPTI host API's pass counts for GH100 need no GPU.
#include "counterguard/exec/pass_groups.hpp"

#include <gtest/gtest.h>

#include "counterguard/exec/extra_pass_reasons.hpp"
#include "counterguard/metrics/metric_catalog.hpp"

namespace counterguard {
namespace {

const std::vector<std::string> hardware{"dram__bytes_read.sum", "dram__bytes_write.sum"};
// On GH100 these two take two passes together (the host API's count), one each alone.
const std::vector<std::string> two_passes{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                          "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"};
const std::string instrumented = "smsp__sass_inst_executed_op_shared_ld.sum";

TEST(pass_groups, counters_that_fit_one_pass_are_one_group) {
  const pass_groups plan = plan_pass_groups(hardware, "GH100");
  ASSERT_EQ(plan.groups.size(), 1U);
  EXPECT_EQ(plan.groups[0], hardware);
  EXPECT_EQ(plan.kernel_replay_passes, 1);
}

TEST(pass_groups, instrumented_counters_are_a_group_of_their_own_and_every_group_is_one_pass) {
  std::vector<std::string> counters = hardware;
  counters.push_back(instrumented);
  const pass_groups plan = plan_pass_groups(counters, "GH100");
  ASSERT_EQ(plan.groups.size(), 2U);
  EXPECT_EQ(plan.groups[1], std::vector<std::string>{instrumented});
  EXPECT_EQ(plan.kernel_replay_passes, 2);
  for (const auto& group : plan.groups)
    EXPECT_EQ(configuration_passes(group, "GH100"), 1);
}

TEST(pass_groups, hardware_counters_that_share_no_pass_are_split_into_one_pass_groups) {
  const pass_groups plan = plan_pass_groups(two_passes, "GH100");
  EXPECT_EQ(plan.kernel_replay_passes, 2);
  ASSERT_EQ(plan.groups.size(), 2U);
  for (const auto& group : plan.groups)
    EXPECT_EQ(configuration_passes(group, "GH100"), 1);
}

TEST(pass_groups, counters_of_a_group_range_are_those_groups_and_nothing_past_the_last) {
  const pass_groups plan{{{"a", "b"}, {"c"}, {"d"}}, 3};
  EXPECT_EQ(counters_of_groups(plan, 1, 1), std::vector<std::string>{"c"});
  EXPECT_EQ(counters_of_groups(plan, 1, 0), (std::vector<std::string>{"c", "d"}));
  EXPECT_TRUE(counters_of_groups(plan, 3, 1).empty());
}

TEST(extra_pass_reasons, an_instrumented_metric_is_named_as_the_one_that_takes_a_pass_of_its_own) {
  const metric_catalog& catalog = metric_catalog::builtin();
  const metric_definition conflicts = catalog.resolve("shared_load_bank_conflicts");
  std::vector<std::string> counters = hardware;
  counters.insert(counters.end(), conflicts.raw_inputs.begin(), conflicts.raw_inputs.end());
  const pass_groups plan = plan_pass_groups(counters, "GH100");
  const std::vector<std::string> reasons =
      extra_pass_reasons(plan, {catalog.resolve("global_load_requests"), conflicts});
  ASSERT_EQ(reasons.size(), 1U);
  EXPECT_EQ(reasons[0], "shared_load_bank_conflicts: instrumented counters take a pass of their own");
}

TEST(extra_pass_reasons, one_group_needs_no_reason) {
  EXPECT_TRUE(extra_pass_reasons(plan_pass_groups(hardware, "GH100"),
                                 {metric_catalog::builtin().resolve("global_load_requests")})
                  .empty());
}

}  // namespace
}  // namespace counterguard
