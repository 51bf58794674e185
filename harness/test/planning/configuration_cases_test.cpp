// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/configuration_cases.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "counterguard/metrics/metric_catalog.hpp"

namespace counterguard {
namespace {

case_instance measuring(const std::string& name, const std::vector<std::string>& metrics) {
  case_instance made;
  made.name = name;
  for (const auto& metric : metrics) {
    resolved_expectation expectation;
    expectation.metric = metric;
    made.expectations.push_back(expectation);
  }
  return made;
}

configuration_cases grouped(const std::vector<case_instance>& instances, configuration_sharing sharing) {
  const worker_configurations planned = plan_for_instances(
      instances, {}, metric_catalog::builtin(), [](const std::vector<std::string>&) { return 1; }, sharing);
  return cases_by_configuration(instances, planned);
}

TEST(configuration_cases, cases_that_share_a_configuration_are_listed_together_in_instance_order) {
  const configuration_cases plan = grouped(
      {measuring("sectors", {"global_load_sectors"}), measuring("bank", {"shared_store_bank_conflicts"})},
      configuration_sharing::shared);
  ASSERT_EQ(plan.cases.size(), 1U);
  EXPECT_EQ(plan.cases[0], (std::vector<std::string>{"sectors", "bank"}));
  EXPECT_TRUE(plan.without_counters.empty());
}

TEST(configuration_cases, cases_profiled_alone_get_a_group_each) {
  const configuration_cases plan = grouped(
      {measuring("sectors", {"global_load_sectors"}), measuring("bank", {"shared_store_bank_conflicts"})},
      configuration_sharing::per_case);
  ASSERT_EQ(plan.cases.size(), 2U);
  EXPECT_EQ(plan.cases[0].size(), 1U);
  EXPECT_EQ(plan.cases[1].size(), 1U);
  EXPECT_NE(plan.cases[0], plan.cases[1]);
}

TEST(configuration_cases, cases_without_counters_and_skipped_cases_are_listed_apart) {
  case_instance skipped = measuring("skipped", {"global_store_sectors"});
  skipped.skip_reason = "not on this chip";
  const configuration_cases plan = grouped({measuring("registers", {"launch_registers_per_thread"}), skipped,
                                            measuring("bank", {"shared_store_bank_conflicts"})},
                                           configuration_sharing::hardware_stages);
  ASSERT_EQ(plan.cases.size(), 1U);
  EXPECT_EQ(plan.cases[0], (std::vector<std::string>{"bank"}));
  EXPECT_EQ(plan.without_counters, (std::vector<std::string>{"registers", "skipped"}));
}

TEST(configuration_cases, no_instances_give_an_empty_plan) {
  const configuration_cases plan = grouped({}, configuration_sharing::hardware_stages);
  EXPECT_TRUE(plan.cases.empty());
  EXPECT_TRUE(plan.without_counters.empty());
}

}  // namespace
}  // namespace counterguard
