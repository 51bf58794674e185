// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cupti/instrumented_counter.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

TEST(instrumented_counter, sass_counters_are_instrumented_and_hardware_counters_are_not) {
  EXPECT_TRUE(is_instrumented_counter("smsp__sass_inst_executed_op_global_ld.sum"));
  EXPECT_TRUE(is_instrumented_counter("sm__sass_inst_executed_op_dshared_atom.sum"));
  EXPECT_FALSE(is_instrumented_counter("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"));
  EXPECT_FALSE(is_instrumented_counter("smsp__inst_executed_op_ldc.sum"));
  EXPECT_TRUE(has_instrumented_counter({"idc__requests.sum", "smsp__sass_inst_executed.sum"}));
  EXPECT_FALSE(
      has_instrumented_counter({"idc__requests.sum", "sm__warps_active.avg.pct_of_peak_sustained_active"}));
  EXPECT_FALSE(has_instrumented_counter({}));
}

}  // namespace
}  // namespace counterguard
