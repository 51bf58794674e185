// SPDX-License-Identifier: Apache-2.0
// --shard I/N: every case instance in exactly one shard, balanced by cost, the same on every machine.
#include "counterguard/planning/shard_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "counterguard/core/error.hpp"
#include "counterguard/planning/case_cost.hpp"

namespace counterguard {
namespace {

std::vector<std::string> names(std::size_t count) {
  std::vector<std::string> list;
  for (std::size_t i = 0; i < count; ++i)
    list.push_back("suite/case?n=" + std::to_string(i));
  return list;
}

TEST(shard_plan, parses_one_based_index_over_count) {
  const shard_spec spec = parse_shard_spec("2/4");
  EXPECT_EQ(spec.index, 2);
  EXPECT_EQ(spec.count, 4);
  EXPECT_EQ(parse_shard_spec("1/1").count, 1);
}

TEST(shard_plan, refuses_what_is_not_a_shard_naming_the_flag) {
  for (const std::string text : {"0/4", "5/4", "4", "/4", "1/", "a/b", "1/0", "-1/2", "1/2/3", ""}) {
    try {
      static_cast<void>(parse_shard_spec(text));
      ADD_FAILURE() << text;
    } catch (const input_error& e) {
      EXPECT_EQ(e.field(), "--shard") << text;
      EXPECT_NE(std::string(e.what()).find("1 <= I <= N"), std::string::npos) << e.what();
    }
  }
}

TEST(shard_plan, the_union_of_all_shards_is_every_instance_and_they_are_disjoint) {
  const auto list = names(93);
  std::vector<double> costs;
  for (std::size_t i = 0; i < list.size(); ++i)
    costs.push_back(0.01 + static_cast<double>((i * 37) % 11) * 0.05);
  for (int count : {1, 2, 3, 4, 7, 93, 100}) {
    const shard_assignment assignment = assign_shards(list, costs, count);
    std::vector<std::size_t> all;
    for (int index = 1; index <= count; ++index) {
      const shard_record record = make_shard_record(assignment, {index, count});
      EXPECT_EQ(record.total_instances, list.size());
      EXPECT_TRUE(std::is_sorted(record.positions.begin(), record.positions.end()));
      all.insert(all.end(), record.positions.begin(), record.positions.end());
    }
    std::sort(all.begin(), all.end());
    ASSERT_EQ(all.size(), list.size()) << count << " shards";
    for (std::size_t i = 0; i < all.size(); ++i)
      EXPECT_EQ(all[i], i) << count << " shards";
  }
}

TEST(shard_plan, balances_shards_by_cost) {
  const auto list = names(40);
  std::vector<double> costs(list.size(), 0.1);
  costs[3] = 5.0;  // one long case: it gets a shard almost to itself
  costs[17] = 3.0;
  const shard_assignment assignment = assign_shards(list, costs, 3);
  EXPECT_NE(assignment.shard_of[3], assignment.shard_of[17]);
  const auto [lightest, heaviest] = std::minmax_element(assignment.load.begin(), assignment.load.end());
  EXPECT_LE(*heaviest, 5.0 + 0.1);  // LPT: no shard exceeds the longest case plus one short one
  EXPECT_GE(*lightest, 2.0);
}

TEST(shard_plan, without_timing_every_shard_gets_the_same_number_of_cases_give_or_take_one) {
  const auto list = names(93);
  const shard_assignment assignment = assign_shards(list, std::vector<double>(list.size(), 1.0), 4);
  for (int index = 1; index <= 4; ++index) {
    const auto size = make_shard_record(assignment, {index, 4}).positions.size();
    EXPECT_TRUE(size == 23 || size == 24) << size;
  }
}

TEST(shard_plan, the_same_inputs_give_the_same_assignment_whatever_their_order) {
  auto list = names(30);
  std::vector<double> costs(list.size(), 1.0);
  costs[5] = 2.0;
  const shard_assignment first = assign_shards(list, costs, 4);
  // The same instances and costs listed in another order: each lands in the same shard.
  std::vector<std::string> reversed(list.rbegin(), list.rend());
  std::vector<double> reversed_costs(costs.rbegin(), costs.rend());
  const shard_assignment second = assign_shards(reversed, reversed_costs, 4);
  for (std::size_t i = 0; i < list.size(); ++i)
    EXPECT_EQ(first.shard_of[i], second.shard_of[list.size() - 1 - i]) << list[i];
  EXPECT_EQ(assign_shards(list, costs, 4).plan, first.plan);
  EXPECT_NE(assign_shards(list, costs, 3).plan, first.plan);
}

}  // namespace
}  // namespace counterguard
