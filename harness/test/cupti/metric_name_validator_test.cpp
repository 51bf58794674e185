// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cupti/metric_name_validator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

const metric_name_validator& gh100() {
  static const metric_name_validator validator("GH100");
  return validator;
}

// Names CUPTI validates for the GH100 (each also collected on an H200).
const std::vector<std::string> k_known_gh100_metrics = {
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
    "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio",
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum",
    "smsp__inst_executed_op_local_ld.sum",
    "smsp__inst_executed_op_local_st.sum",
    "sm__sass_inst_executed_op_dshared_ld.sum",
    "sm__sass_inst_executed_op_dshared_st.sum",
    "sm__sass_inst_executed_op_dshared_atom.sum",
    "idc__requests.sum",
    "smsp__inst_executed_op_ldc.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "smsp__inst_executed.sum",
    "smsp__average_thread_inst_executed_per_inst_executed.ratio",
    "gpu__time_duration.sum",
};

TEST(metric_name_validator, knows_the_documented_gh100_metrics) {
  for (const auto& metric : k_known_gh100_metrics)
    EXPECT_TRUE(gh100().is_valid(metric)) << metric;
}

TEST(metric_name_validator, lists_thousands_of_base_metrics_without_unit_prefixes) {
  const auto& bases = gh100().base_metrics();
  EXPECT_GT(bases.size(), 3000u);
  EXPECT_TRUE(std::binary_search(bases.begin(), bases.end(), "smsp__inst_executed"));
  EXPECT_TRUE(
      std::none_of(bases.begin(), bases.end(), [](const std::string& b) { return b.find('.') != b.npos; }));
}

TEST(metric_name_validator, counters_need_a_rollup) {
  EXPECT_FALSE(gh100().is_valid("l1tex__t_sectors_pipe_lsu_mem_global_op_ld"));
  EXPECT_TRUE(gh100().is_valid("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum.per_second"));
  EXPECT_FALSE(gh100().is_valid("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.ratio"));
}

TEST(metric_name_validator, ratios_take_ratio_pct_or_max_rate) {
  const auto suffixes = gh100().suffixes("smsp__average_thread_inst_executed_per_inst_executed");
  EXPECT_EQ(suffixes, (std::vector<std::string>{".max_rate", ".pct", ".ratio"}));
  EXPECT_FALSE(gh100().is_valid("smsp__average_thread_inst_executed_per_inst_executed.sum"));
}

TEST(metric_name_validator, agrees_with_cupti_configuration_on_valid_and_invalid_names) {
  // pass_count goes through cuptiProfilerHostConfigAddMetrics, the authority the lists stand in for.
  for (const std::string metric : {"sm__warps_active.avg.pct_of_peak_sustained_active", "idc__requests.sum",
                                   "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum.per_second"}) {
    EXPECT_TRUE(gh100().is_valid(metric)) << metric;
    EXPECT_GE(gh100().pass_count({metric}), 1) << metric;
  }
}

TEST(metric_name_validator, typo_in_the_base_suggests_the_intended_metric) {
  const auto suggestions = gh100().suggestions("l1tex__t_sectors_pipe_lsu_mem_global_op_ldd.sum");
  ASSERT_FALSE(suggestions.empty());
  EXPECT_EQ(suggestions.front(), "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
}

TEST(metric_name_validator, typo_in_the_rollup_suggests_the_rollup) {
  const auto suggestions = gh100().suggestions("smsp__inst_executed.summ");
  ASSERT_FALSE(suggestions.empty());
  EXPECT_EQ(suggestions.front(), "smsp__inst_executed.sum");
}

TEST(metric_name_validator, missing_rollup_suggests_the_sum) {
  const auto suggestions = gh100().suggestions("smsp__inst_executd");
  ASSERT_FALSE(suggestions.empty());
  EXPECT_EQ(suggestions.front(), "smsp__inst_executed.sum");
}

TEST(metric_name_validator, core_metric_set_needs_a_sane_number_of_passes) {
  const std::vector<std::string> core(k_known_gh100_metrics.begin(), k_known_gh100_metrics.begin() + 19);
  const int passes = gh100().pass_count(core);
  EXPECT_GE(passes, 1);
  EXPECT_LE(passes, 19);
}

TEST(metric_name_validator, one_counter_needs_one_pass) {
  EXPECT_EQ(gh100().pass_count({"smsp__inst_executed.sum"}), 1);
}

TEST(metric_name_validator, pass_count_of_an_unknown_name_is_an_input_error_with_a_suggestion) {
  try {
    static_cast<void>(gh100().pass_count({"smsp__inst_executed.sum", "smsp__inst_exectued.sum"}));
    FAIL() << "expected input_error";
  } catch (const input_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("'smsp__inst_exectued.sum'"), std::string::npos) << message;
    EXPECT_NE(message.find("did you mean 'smsp__inst_executed.sum'"), std::string::npos) << message;
  }
}

TEST(metric_name_validator, unknown_chip_is_an_input_error_listing_the_known_chips) {
  try {
    metric_name_validator validator("GX999");
    FAIL() << "expected input_error";
  } catch (const input_error& error) {
    EXPECT_EQ(error.field(), "chip");
    EXPECT_NE(std::string(error.what()).find("GH100"), std::string::npos) << error.what();
  }
}

TEST(metric_name_validator, supported_chips_include_the_h200_chip) {
  const auto chips = metric_name_validator::supported_chips();
  EXPECT_NE(std::find(chips.begin(), chips.end(), "GH100"), chips.end());
  EXPECT_NE(std::find(chips.begin(), chips.end(), "GA100"), chips.end());
}

}  // namespace
}  // namespace counterguard
