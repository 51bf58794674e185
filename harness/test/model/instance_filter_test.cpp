// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "counterguard/model/suite_loader.hpp"

namespace counterguard {
namespace {

std::vector<case_instance> instances_named(const std::vector<std::string>& names) {
  std::vector<case_instance> instances;
  for (const auto& name : names) {
    case_instance instance;
    instance.name = name;
    instances.push_back(instance);
  }
  return instances;
}

std::vector<std::string> filtered(const std::string& pattern) {
  std::vector<std::string> names;
  for (const auto& instance :
       filter_instances(instances_named({"transpose/smem", "transpose/smem_padded?pad=1,n=1024",
                                         "transpose/naive", "coalescing/vec_add?stride=2"}),
                        pattern)) {
    names.push_back(instance.name);
  }
  return names;
}

TEST(filter_instances, an_empty_pattern_keeps_everything) {
  EXPECT_EQ(filtered("").size(), 4U);
}

TEST(filter_instances, a_pattern_without_wildcards_matches_the_whole_name_only) {
  EXPECT_EQ(filtered("transpose/smem"), (std::vector<std::string>{"transpose/smem"}));
  EXPECT_TRUE(filtered("transpose").empty());
}

TEST(filter_instances, a_trailing_star_matches_any_rest) {
  EXPECT_EQ(filtered("transpose/smem*"),
            (std::vector<std::string>{"transpose/smem", "transpose/smem_padded?pad=1,n=1024"}));
}

TEST(filter_instances, stars_match_anywhere) {
  EXPECT_EQ(filtered("*n=1024"), (std::vector<std::string>{"transpose/smem_padded?pad=1,n=1024"}));
  EXPECT_EQ(filtered("*/*a*e"), (std::vector<std::string>{"transpose/naive"}));
  EXPECT_EQ(filtered("*").size(), 4U);
}

TEST(filter_instances, a_question_mark_is_literal) {
  EXPECT_EQ(filtered("coalescing/vec_add?stride=2"),
            (std::vector<std::string>{"coalescing/vec_add?stride=2"}));
  EXPECT_TRUE(filtered("transpose/smem?").empty());
}

TEST(filter_instances, the_order_is_kept) {
  EXPECT_EQ(filtered("*d*"),
            (std::vector<std::string>{"transpose/smem_padded?pad=1,n=1024", "coalescing/vec_add?stride=2"}));
}

}  // namespace
}  // namespace counterguard
