// SPDX-License-Identifier: Apache-2.0
#include "counterguard/planning/hardware_counter_stage.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace counterguard {
namespace {

TEST(hardware_counter_stage, is_the_unit_and_the_first_word_after_it) {
  EXPECT_EQ(hardware_counter_stage("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum"), "l1tex__t");
  EXPECT_EQ(hardware_counter_stage("l1tex__t_requests_pipe_tex_mem_texture.sum"), "l1tex__t");
  EXPECT_EQ(hardware_counter_stage("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
            "l1tex__data");
  EXPECT_EQ(hardware_counter_stage("idc__requests.sum"), "idc__requests");
  EXPECT_EQ(hardware_counter_stage("smsp__inst_executed_op_ldc.sum"), "smsp__inst");
  EXPECT_EQ(hardware_counter_stage("sm__warps_active.avg.pct_of_peak_sustained_active"), "sm__warps");
  EXPECT_EQ(hardware_counter_stage("dram__bytes_read.sum"), "dram__bytes");
}

TEST(hardware_counter_stage, is_empty_for_instrumented_counters) {
  EXPECT_EQ(hardware_counter_stage("smsp__sass_inst_executed_op_shared_ld.sum"), "");
  EXPECT_EQ(hardware_counter_stage("sm__sass_inst_executed_op_dshared_atom.sum"), "");
  EXPECT_EQ(hardware_counter_stage("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"), "");
}

TEST(hardware_counter_stage, a_name_without_a_unit_is_its_own_stage) {
  EXPECT_EQ(hardware_counter_stage("mystery"), "mystery");
  EXPECT_EQ(hardware_counter_stage("gpu__"), "gpu__");
}

TEST(hardware_counter_stages, are_distinct_and_sorted_without_instrumented_counters) {
  const std::vector<std::string> raw = {
      "smsp__inst_executed_op_ldc.sum", "idc__requests.sum", "smsp__sass_inst_executed.sum",
      "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum", "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum"};
  EXPECT_EQ(hardware_counter_stages(raw),
            (std::vector<std::string>{"idc__requests", "l1tex__t", "smsp__inst"}));
  EXPECT_TRUE(hardware_counter_stages({"smsp__sass_inst_executed.sum"}).empty());
  EXPECT_TRUE(hardware_counter_stages({}).empty());
}

}  // namespace
}  // namespace counterguard
