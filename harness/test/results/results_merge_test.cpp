// SPDX-License-Identifier: Apache-2.0
// `counterguard merge`: shards back into one results file in suite order, or refused naming the files.
#include "counterguard/results/results_merge.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

case_result named(const std::string& instance) {
  case_result c;
  c.instance = instance;
  c.suite = "s";
  c.case_name = instance;
  return c;
}

// Shard `index` of `count` of the instances a..f, dealt out round-robin (positions i with i % count ==
// index-1).
named_results shard(int index, int count, const std::string& plan = "p1", const std::string& key = "K") {
  const std::vector<std::string> all{"s/a", "s/b", "s/c", "s/d", "s/e", "s/f"};
  named_results input;
  input.file = "shard" + std::to_string(index) + ".json";
  input.results.metadata.gpu_key = key;
  input.results.metadata.started_at = "2026-01-0" + std::to_string(index) + "T00:00:00Z";
  shard_record record;
  record.index = index;
  record.count = count;
  record.total_instances = all.size();
  record.plan = plan;
  for (std::size_t i = static_cast<std::size_t>(index - 1); i < all.size();
       i += static_cast<std::size_t>(count)) {
    record.positions.push_back(i);
    input.results.cases.push_back(named(all[i]));
  }
  input.results.metadata.shard = record;
  return input;
}

std::vector<std::string> instances(const run_results& results) {
  std::vector<std::string> names;
  for (const auto& c : results.cases)
    names.push_back(c.instance);
  return names;
}

std::string refusal(const std::vector<named_results>& inputs) {
  try {
    static_cast<void>(merge_results(inputs));
  } catch (const input_error& e) {
    EXPECT_EQ(e.code(), exit_code::invalid_input);
    return e.what();
  }
  ADD_FAILURE() << "expected the merge to be refused";
  return {};
}

TEST(results_merge, shards_come_back_in_the_unsharded_order_whatever_order_they_are_given_in) {
  const run_results merged = merge_results({shard(3, 3), shard(1, 3), shard(2, 3)});
  EXPECT_EQ(instances(merged), (std::vector<std::string>{"s/a", "s/b", "s/c", "s/d", "s/e", "s/f"}));
  EXPECT_FALSE(merged.metadata.shard.has_value());
  EXPECT_EQ(merged.metadata.started_at, "2026-01-01T00:00:00Z");
  nlohmann::json written = merged;
  EXPECT_FALSE(written["metadata"].contains("shard"));
}

TEST(results_merge, a_shard_record_survives_the_results_file) {
  const named_results input = shard(2, 3);
  const nlohmann::json written = input.results;
  const run_results read = read_run_results(written, "shard2.json");
  ASSERT_TRUE(read.metadata.shard.has_value());
  EXPECT_EQ(read.metadata.shard->index, 2);
  EXPECT_EQ(read.metadata.shard->count, 3);
  EXPECT_EQ(read.metadata.shard->positions, (std::vector<std::size_t>{1, 4}));
  EXPECT_EQ(read.metadata.shard->plan, "p1");
}

TEST(results_merge, whole_runs_are_joined_in_the_order_given) {
  named_results first{"a.json", {}};
  first.results.metadata.gpu_key = "K";
  first.results.cases = {named("x/1"), named("x/2")};
  named_results second{"b.json", {}};
  second.results.metadata.gpu_key = "K";
  second.results.cases = {named("y/1")};
  EXPECT_EQ(instances(merge_results({first, second})), (std::vector<std::string>{"x/1", "x/2", "y/1"}));
}

TEST(results_merge, refuses_different_gpu_keys_naming_both_files) {
  const std::string message = refusal({shard(1, 2), shard(2, 2, "p1", "OTHER")});
  EXPECT_NE(message.find("shard2.json"), std::string::npos) << message;
  EXPECT_NE(message.find("shard1.json"), std::string::npos) << message;
  EXPECT_NE(message.find("OTHER"), std::string::npos) << message;
}

TEST(results_merge, an_empty_shard_has_no_gpu_key_to_disagree_with) {
  named_results empty = shard(2, 2, "p1", "");
  empty.results.cases.clear();
  empty.results.metadata.shard->positions.clear();
  named_results full = shard(1, 2);
  // Shard 1 then holds only half the positions: the merge sees the gap, not a key mismatch.
  const std::string message = refusal({full, empty});
  EXPECT_EQ(message.find("GPU key"), std::string::npos) << message;
  EXPECT_NE(message.find("position"), std::string::npos) << message;
}

TEST(results_merge, refuses_an_instance_in_two_files) {
  named_results first{"a.json", {}};
  first.results.cases = {named("x/1")};
  named_results second{"b.json", {}};
  second.results.cases = {named("x/2"), named("x/1")};
  const std::string message = refusal({first, second});
  EXPECT_NE(message.find("b.json"), std::string::npos) << message;
  EXPECT_NE(message.find("a.json"), std::string::npos) << message;
  EXPECT_NE(message.find("x/1"), std::string::npos) << message;
}

TEST(results_merge, refuses_missing_repeated_or_foreign_shards) {
  EXPECT_NE(refusal({shard(1, 3), shard(3, 3)}).find("missing shards: 2/3"), std::string::npos);
  EXPECT_NE(refusal({shard(1, 2), shard(2, 2), shard(2, 2)}).find("s/"), std::string::npos)
      << "the repeated shard's instances overlap";
  EXPECT_NE(refusal({shard(1, 2), shard(2, 2, "p2")}).find("same plan"), std::string::npos);
  named_results other_count = shard(2, 2);
  other_count.results.metadata.shard->count = 3;
  EXPECT_NE(refusal({shard(1, 2), other_count}).find("same plan"), std::string::npos);
  named_results plain{"plain.json", {}};
  plain.results.metadata.gpu_key = "K";
  plain.results.cases = {named("z/1")};
  EXPECT_NE(refusal({shard(1, 2), shard(2, 2), plain}).find("plain.json"), std::string::npos);
}

std::string refusal_expecting(const std::vector<named_results>& inputs, int expected) {
  try {
    static_cast<void>(merge_results(inputs, expected));
  } catch (const input_error& e) {
    EXPECT_EQ(e.code(), exit_code::invalid_input);
    return e.what();
  }
  ADD_FAILURE() << "expected the merge to be refused";
  return {};
}

TEST(results_merge, expected_shards_name_every_missing_shard_even_without_any_input) {
  EXPECT_NE(refusal_expecting({}, 3).find("missing shards: 1/3, 2/3, 3/3"), std::string::npos);
  EXPECT_NE(refusal_expecting({shard(2, 3)}, 3).find("missing shards: 1/3, 3/3"), std::string::npos);
}

TEST(results_merge, expected_shards_refuse_shards_of_another_count_or_whole_runs) {
  const std::string message = refusal_expecting({shard(1, 2), shard(2, 2)}, 4);
  EXPECT_NE(message.find("shard1.json"), std::string::npos) << message;
  EXPECT_NE(message.find("--expect-shards 4"), std::string::npos) << message;
  named_results plain{"plain.json", {}};
  plain.results.cases = {named("z/1")};
  EXPECT_NE(refusal_expecting({plain}, 1).find("plain.json"), std::string::npos);
}

TEST(results_merge, expected_shards_that_are_all_there_merge_as_without_the_expectation) {
  const run_results merged = merge_results({shard(2, 2), shard(1, 2)}, 2);
  EXPECT_EQ(instances(merged), (std::vector<std::string>{"s/a", "s/b", "s/c", "s/d", "s/e", "s/f"}));
}

}  // namespace
}  // namespace counterguard
