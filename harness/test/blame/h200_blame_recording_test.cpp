// SPDX-License-Identifier: Apache-2.0
// Per-instruction counters recorded on the H200 (harness/test/fixtures/h200_blame: `counterguard blame
// --record`, validation/gpu_checks.sh blame) joined to this program's copy of the built-in
// kernels: the same objects as the counterguard binary that recorded them, so the same cubins and PCs. A
// change to those kernels' sources makes these tests fail until the profiles are recorded again.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "counterguard/blame/blame_diff.hpp"
#include "counterguard/blame/source_line_blame.hpp"

namespace counterguard {
namespace {

const std::string fixtures = std::string(COUNTERGUARD_SOURCE_DIR) + "/harness/test/fixtures/h200_blame/";
const std::string self = "/proc/self/exe";

std::vector<kernel_blame> joined(const std::string& name) {
  return join_profile(read_sass_profile(fixtures + name + ".json"), self, /*lines_only=*/true);
}

std::map<std::string, std::uint64_t> kernel_totals(const std::vector<kernel_blame>& blames) {
  std::map<std::string, std::uint64_t> totals;
  for (const auto& blame : blames) {
    for (const auto& line : blame.lines) {
      for (const auto& [metric, value] : line.values)
        totals[metric] += value;
    }
  }
  return totals;
}

TEST(h200_blame_recording, the_missing_padding_is_blamed_on_the_tile_store_line) {
  const auto changes = diff_blame(joined("padded"), joined("unpadded"));
  ASSERT_GE(changes.size(), 2U);
  EXPECT_EQ(changes[0].place, "transpose.cu:34");
  EXPECT_EQ(changes[0].metric, "shared_excess_wavefronts");
  EXPECT_EQ(changes[0].before, 0U);
  EXPECT_EQ(changes[0].after, 4063232U);  // the range profiler's shared_store_bank_conflicts for this case
  EXPECT_EQ(changes[1].metric, "shared_wavefronts");
  EXPECT_EQ(changes[1].after - changes[1].before, 4063232U);
  for (const auto& change : changes)
    EXPECT_EQ(change.place, "transpose.cu:34") << change.metric;
}

TEST(h200_blame_recording, the_kernel_totals_are_what_ncu_reports_for_the_same_launch) {
  // ncu --section SourceCounters on transpose/smem_unpadded?n=2048
  // (validation/gpu_checks.sh blame): L1 Wavefronts Shared 4,325,376, Ideal 262,144; Executed
  // Instructions 4,849,664; L2 Theoretical Sectors Global 1,048,576.
  const auto totals = kernel_totals(joined("unpadded"));
  EXPECT_EQ(totals.at("shared_wavefronts"), 4325376U);
  EXPECT_EQ(totals.at("shared_wavefronts_ideal"), 262144U);
  EXPECT_EQ(totals.at("executed_instructions"), 4849664U);
  EXPECT_EQ(totals.at("global_sectors"), 1048576U);
}

TEST(h200_blame_recording, a_power_of_two_stride_is_blamed_on_the_shared_load) {
  const auto changes = diff_blame(joined("s1"), joined("s32"));
  ASSERT_FALSE(changes.empty());
  EXPECT_EQ(changes[0].place, "read_pattern.cu:34");
  EXPECT_EQ(changes[0].metric, "shared_excess_wavefronts");
  EXPECT_EQ(changes[0].after, 1015808U);  // 31 extra wavefronts for each of 32768 loads
}

TEST(h200_blame_recording, predicated_off_lanes_are_counted_where_the_compiler_predicated_the_branch) {
  // divergence/predicated_odd_even: the range profiler's 17825792 thread instructions, 17301504 of them
  // predicated on (ncu agrees: validation/gpu_checks.sh predication), so 524288 lanes predicated off.
  const auto blames = joined("predicated");
  const auto totals = kernel_totals(blames);
  EXPECT_EQ(totals.at("thread_executed_instructions"), 17825792U);
  EXPECT_EQ(totals.at("predicated_on_thread_instructions"), 17301504U);
  EXPECT_EQ(totals.at("predicated_off_thread_instructions"), 524288U);
  ASSERT_EQ(blames.size(), 1U);
  const auto ranked = rank_lines(blames[0], "predicated_off_thread_instructions");
  ASSERT_FALSE(ranked.empty());
  // Line 71: the call of path_a_unrolled under `if (threadIdx.x % 2U == 0U)`, the odd lanes' half; the
  // predicated instructions are its body (line 59), inlined there.
  EXPECT_EQ(line_place(ranked[0]->position), "divergence.cu:71");
  EXPECT_EQ(ranked[0]->values.at("predicated_off_thread_instructions"), 524288U);
  EXPECT_EQ(inline_chain(top_instruction(blames[0], *ranked[0], "predicated_off_thread_instructions")),
            (std::vector<std::string>{"divergence.cu:71", "divergence.cu:59"}));
}

TEST(h200_blame_recording, a_second_run_of_the_unchanged_kernel_blames_nothing) {
  // Two `blame --record` runs of transpose/smem_unpadded?n=2048 on the H200, one after the other.
  EXPECT_TRUE(diff_blame(joined("unpadded"), joined("unpadded_again")).empty());
  EXPECT_FALSE(diff_blame(joined("padded"), joined("unpadded_again")).empty());
}

}  // namespace
}  // namespace counterguard
