// SPDX-License-Identifier: Apache-2.0
#include "counterguard/evaluator/counter_data_evaluator.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "counterguard/core/error.hpp"
#include "fixture_image.hpp"

namespace counterguard {
namespace {

const counter_data_image& fixture() {
  static const counter_data_image image = test::h200_five_kernels_image();
  return image;
}

std::vector<double> column(const std::vector<evaluated_range>& ranges, const std::string& metric) {
  std::vector<double> values;
  for (const auto& range : ranges)
    values.push_back(range.values.at(metric));
  return values;
}

TEST(counter_data_evaluator, fixture_image_unpacks_to_the_recorded_size) {
  EXPECT_EQ(fixture().bytes.size(), 3015236u);
}

TEST(counter_data_evaluator, auto_range_names_are_launch_indices) {
  const auto ranges = evaluate_counter_data(fixture(), {});
  ASSERT_EQ(ranges.size(), 5u);
  for (std::size_t i = 0; i < ranges.size(); ++i)
    EXPECT_EQ(ranges[i].name, std::to_string(i));
}

TEST(counter_data_evaluator, counters_match_the_values_evaluated_on_the_h200) {
  const std::vector<std::pair<std::string, std::vector<double>>> expected = {
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", {0, 0, 253952, 0, 0}},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", {0, 0, 262144, 0, 0}},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", {0, 0, 8192, 0, 0}},
      {"smsp__inst_executed_op_shared_ld.sum", {0, 0, 8192, 0, 0}},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", {0, 32768, 0, 32768, 32768}},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", {0, 32768, 32768, 32768, 65536}},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", {0, 8192, 0, 8192, 8192}},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", {0, 8192, 8192, 8192, 16384}},
      {"smsp__sass_branch_targets_threads_divergent.sum", {0, 0, 0, 0, 8192}},
      {"gpu__time_duration.sum", {7424, 2432, 3072, 3808, 2880}},
  };
  std::vector<std::string> metrics;
  for (const auto& entry : expected)
    metrics.push_back(entry.first);
  const auto ranges = evaluate_counter_data(fixture(), metrics);
  for (const auto& [metric, values] : expected)
    EXPECT_EQ(column(ranges, metric), values) << metric;
}

TEST(counter_data_evaluator, instruction_counts_match_the_h200) {
  const auto values =
      column(evaluate_counter_data(fixture(), {"smsp__inst_executed.sum"}), "smsp__inst_executed.sum");
  EXPECT_EQ(values[0], 131072);
  EXPECT_EQ(values[1], 122880);
  EXPECT_EQ(values[2], 196608);
  EXPECT_NEAR(values[3], 1712130, 10);  // the fixture notes give this one as approximate
  EXPECT_EQ(values[4], 598016);
}

TEST(counter_data_evaluator, divergence_ratio_matches_to_the_digits_shown) {
  const std::string metric = "smsp__average_thread_inst_executed_per_inst_executed.ratio";
  const auto values = column(evaluate_counter_data(fixture(), {metric}), metric);
  for (int r = 0; r < 4; ++r)
    EXPECT_EQ(values[r], 32.0) << "range " << r;
  EXPECT_NEAR(values[4], 19.5068, 0.00005);
}

TEST(counter_data_evaluator, derivable_ratio_evaluates_although_not_configured) {
  const std::string metric = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio";
  const auto values = column(evaluate_counter_data(fixture(), {metric}), metric);
  EXPECT_EQ(values, (std::vector<double>{0, 4, 4, 4, 4}));
}

TEST(counter_data_evaluator, unknown_metric_is_named_in_the_error) {
  try {
    static_cast<void>(evaluate_counter_data(
        fixture(), {"smsp__inst_executed.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ldd.sum"}));
    FAIL() << "expected api_error";
  } catch (const api_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("'l1tex__t_sectors_pipe_lsu_mem_global_op_ldd.sum'"), std::string::npos)
        << message;
    EXPECT_EQ(message.find("'smsp__inst_executed.sum'"), std::string::npos) << message;
  }
}

TEST(counter_data_evaluator, evaluation_still_works_after_a_refused_metric) {
  EXPECT_THROW(static_cast<void>(evaluate_counter_data(fixture(), {"no_such__metric.sum"})), api_error);
  const auto ranges = evaluate_counter_data(fixture(), {"smsp__inst_executed_op_shared_ld.sum"});
  EXPECT_EQ(ranges.at(2).values.at("smsp__inst_executed_op_shared_ld.sum"), 8192);
}

TEST(counter_data_evaluator, bytes_that_are_not_an_image_are_refused_before_cupti_sees_them) {
  counter_data_image junk;
  junk.chip = "GH100";
  junk.bytes.assign(1000, 7);
  EXPECT_THROW(static_cast<void>(evaluate_counter_data(junk, {"smsp__inst_executed.sum"})), api_error);
}

TEST(counter_data_evaluator, image_of_another_chip_is_refused) {
  counter_data_image image = fixture();
  image.chip = "GA100";
  EXPECT_THROW(static_cast<void>(evaluate_counter_data(image, {"smsp__inst_executed.sum"})), error);
}

TEST(counter_data_evaluator, unknown_chip_is_an_input_error) {
  counter_data_image image = fixture();
  image.chip = "XX999";
  EXPECT_THROW(static_cast<void>(evaluate_counter_data(image, {"smsp__inst_executed.sum"})), input_error);
}

}  // namespace
}  // namespace counterguard
