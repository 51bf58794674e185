// SPDX-License-Identifier: Apache-2.0
// Cost estimates that order work longest first (--devices) and balance shards (--shard).
#include "counterguard/planning/case_cost.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

case_instance named(const std::string& name) {
  case_instance instance;
  instance.name = name;
  return instance;
}

run_results timed(const std::vector<std::pair<std::string, double>>& cases) {
  run_results results;
  for (const auto& [name, seconds] : cases) {
    case_result result;
    result.instance = name;
    result.seconds = seconds;
    results.cases.push_back(result);
  }
  return results;
}

TEST(case_cost, a_recorded_instance_costs_its_seconds_and_a_new_one_the_median) {
  const case_cost_table table = case_costs_of({timed({{"s/a", 1.0}, {"s/b", 3.0}, {"s/c", 2.0}})});
  const auto costs = estimate_case_costs({named("s/a"), named("s/new"), named("s/b")}, table);
  EXPECT_EQ(costs, (std::vector<double>{1.0, 2.0, 3.0}));
}

TEST(case_cost, without_any_record_every_instance_costs_the_same) {
  const auto costs = estimate_case_costs({named("s/a"), named("s/b")}, {});
  EXPECT_EQ(costs, (std::vector<double>{1.0, 1.0}));
}

TEST(case_cost, a_skipped_instance_costs_nothing_and_a_later_file_wins) {
  case_instance skipped = named("s/skip");
  skipped.skip_reason = "not on this chip";
  const case_cost_table table =
      case_costs_of({timed({{"s/a", 1.0}, {"s/skip", 4.0}}), timed({{"s/a", 5.0}, {"s/zero", 0.0}})});
  EXPECT_EQ(table.seconds.count("s/zero"), 0U) << "a zero time says nothing about the cost";
  const auto costs = estimate_case_costs({named("s/a"), skipped}, table);
  EXPECT_EQ(costs, (std::vector<double>{5.0, 0.0}));
}

TEST(case_cost, longest_first_keeps_the_given_order_among_equals) {
  EXPECT_EQ(longest_first({1.0, 5.0, 1.0, 9.0, 5.0}), (std::vector<std::size_t>{3, 1, 4, 0, 2}));
}

}  // namespace
}  // namespace counterguard
