// SPDX-License-Identifier: Apache-2.0
// Several GPU workers keep to one group (a profiler configuration, or a case) until its instances are gone.
#include "counterguard/runner/case_group_queue.hpp"

#include <gtest/gtest.h>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

case_instance instance_of(const std::string& suite, const std::string& case_name, const std::string& axes) {
  case_instance instance;
  instance.suite = suite;
  instance.suite_path = "cases/" + suite + ".yaml";
  instance.case_name = case_name;
  instance.name = suite + "/" + case_name + axes;
  return instance;
}

// Suite s: case a with three instances, case b with two, case c with one.
std::vector<case_instance> three_cases() {
  return {instance_of("s", "a", "?n=1"), instance_of("s", "a", "?n=2"), instance_of("s", "b", "?n=1"),
          instance_of("s", "a", "?n=3"), instance_of("s", "b", "?n=2"), instance_of("s", "c", "")};
}

TEST(case_group_queue, cases_come_most_expensive_first_with_their_instances_in_order) {
  case_group_queue queue(three_cases(), {1, 1, 5, 1, 5, 2});  // a: 3, b: 10, c: 2
  std::vector<std::size_t> order;
  std::optional<std::size_t> group;
  while (auto position = queue.take(group, {})) {
    order.push_back(*position);
    group = queue.group_of(*position);
  }
  EXPECT_EQ(order, (std::vector<std::size_t>{2, 4, 0, 1, 3, 5}));
}

TEST(case_group_queue, a_worker_keeps_to_its_case_and_another_starts_a_case_nobody_is_on) {
  case_group_queue queue(three_cases(), std::vector<double>(6, 1.0));  // a: 3, b: 2, c: 1
  const auto first = queue.take(std::nullopt, {});                     // worker 0
  ASSERT_TRUE(first);
  EXPECT_EQ(*first, 0U);
  const std::size_t a = queue.group_of(0);
  const auto second = queue.take(std::nullopt, {a});  // worker 1, while worker 0 is on a
  ASSERT_TRUE(second);
  EXPECT_EQ(*second, 2U);  // b's first, not a's second
  EXPECT_EQ(*queue.take(a, {queue.group_of(2)}), 1U);
  EXPECT_EQ(*queue.take(queue.group_of(2), {a}), 4U);
  EXPECT_EQ(*queue.take(a, {queue.group_of(4)}), 3U);
}

TEST(case_group_queue, with_only_another_workers_case_left_a_worker_helps_from_its_end) {
  case_group_queue queue(
      {instance_of("s", "a", "?n=1"), instance_of("s", "a", "?n=2"), instance_of("s", "a", "?n=3")},
      {1, 1, 1});
  const std::size_t a = queue.group_of(0);
  EXPECT_EQ(*queue.take(std::nullopt, {}), 0U);
  EXPECT_EQ(*queue.take(std::nullopt, {a}), 2U);
  EXPECT_EQ(*queue.take(a, {a}), 1U);
  EXPECT_FALSE(queue.take(a, {}));
  EXPECT_TRUE(queue.empty());
}

TEST(case_group_queue, a_case_of_the_same_name_in_another_suite_is_another_group) {
  case_group_queue queue({instance_of("s", "a", ""), instance_of("t", "a", "")}, {1, 1});
  EXPECT_NE(queue.group_of(0), queue.group_of(1));
  queue.put_back(*queue.take(std::nullopt, {}));
  EXPECT_EQ(queue.size(), 2U);
}

TEST(case_group_queue, with_configurations_a_group_is_a_configuration_whatever_the_cases) {
  // a and c share configuration 0, b has 1; the instance of b without counters (-1) is a group of its own.
  case_group_queue queue(three_cases(), {1, 1, 5, 1, 5, 2}, {0, 0, 1, 0, -1, 0});  // 0: 5, 1: 5, -1: 5
  EXPECT_EQ(queue.group_of(0), queue.group_of(5)) << "a and c";
  EXPECT_NE(queue.group_of(0), queue.group_of(2));
  EXPECT_NE(queue.group_of(2), queue.group_of(4));
  std::vector<std::size_t> order;
  std::optional<std::size_t> group;
  while (auto position = queue.take(group, {})) {
    order.push_back(*position);
    group = queue.group_of(*position);
  }
  // Equal costs: the groups in the order of their first instance, each whole.
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 3, 5, 2, 4}));
  EXPECT_THROW(case_group_queue(three_cases(), {1, 1, 5, 1, 5, 2}, {0, 1}), internal_error);
}

TEST(case_group_queue, configurations_come_in_one_workers_order_not_by_cost) {
  // Configuration 1 (instrumented counters, numbered after the hardware-only 0) is the most expensive, yet 0
  // comes first, as one GPU's worker profiles them: no worker goes back from instrumented to hardware
  // counters (a restarted profiling session). Instances without counters come last.
  case_group_queue queue(three_cases(), {1, 1, 9, 1, 9, 1}, {1, 0, 1, -1, 1, 0});  // 1: 19, 0: 2, -1: 1
  std::vector<std::size_t> order;
  std::optional<std::size_t> group;
  while (auto position = queue.take(group, {})) {
    order.push_back(*position);
    group = queue.group_of(*position);
  }
  EXPECT_EQ(order, (std::vector<std::size_t>{1, 5, 0, 2, 4, 3}));
}

}  // namespace
}  // namespace counterguard
