// SPDX-License-Identifier: Apache-2.0
// Joining per-PC counters to the built-in transpose kernel's cubin (compiled into this test program with
// -lineinfo), ranking lines, the before/after diff, the profile's JSON round trip and its errors.
#include "counterguard/blame/source_line_blame.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "counterguard/blame/blame_diff.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/profiler/sass_metric_names.hpp"
#include "counterguard/runner/regression_blame.hpp"

namespace counterguard {
namespace {

const std::string self = "/proc/self/exe";
const std::string tile = "_ZN12counterguard7kernels9transpose9smem_tileEPKfPfii";

kernel_sass tile_sass() {
  return read_kernel_sass(self, tile, {"sm_90", true}).at(0);
}

// The counters of the first two instructions of two different source lines.
sass_function_profile counters(const kernel_sass& sass, std::uint64_t a, std::uint64_t b, std::uint64_t& pc_a,
                               std::uint64_t& pc_b) {
  pc_a = sass.instructions.at(0).offset;
  pc_b = pc_a;
  for (const auto& instruction : sass.instructions) {
    if (instruction.position->line != sass.instructions.at(0).position->line) {
      pc_b = instruction.offset;
      break;
    }
  }
  sass_function_profile profile;
  profile.mangled = tile;
  profile.function = "counterguard::kernels::transpose::smem_tile";
  profile.values_by_pc[pc_a] = {{"shared_wavefronts", a}};
  profile.values_by_pc[pc_b] = {{"shared_wavefronts", b}};
  return profile;
}

int line_of(const kernel_sass& sass, std::uint64_t pc) {
  for (const auto& instruction : sass.instructions) {
    if (instruction.offset == pc)
      return instruction.position->line;
  }
  return 0;
}

TEST(source_line_blame, sums_counters_per_line_and_ranks_the_largest_first) {
  const kernel_sass sass = tile_sass();
  std::uint64_t pc_a = 0;
  std::uint64_t pc_b = 0;
  const kernel_blame blame = join_blame(counters(sass, 7, 4063232, pc_a, pc_b), sass);
  ASSERT_NE(pc_a, pc_b);
  const auto ranked = rank_lines(blame, "shared_wavefronts");
  ASSERT_EQ(ranked.size(), 2U);
  EXPECT_EQ(ranked[0]->position->line, line_of(sass, pc_b));
  EXPECT_EQ(ranked[0]->values.at("shared_wavefronts"), 4063232U);
  EXPECT_EQ(ranked[1]->values.at("shared_wavefronts"), 7U);
  EXPECT_EQ(top_instruction(blame, *ranked[0], "shared_wavefronts").pc_offset, pc_b);
  EXPECT_EQ(rank_lines(blame, "shared_wavefronts", 1).size(), 1U);
  EXPECT_TRUE(blame.unmatched_pc_offsets.empty());
}

TEST(source_line_blame, reports_counted_pcs_the_function_does_not_have) {
  const kernel_sass sass = tile_sass();
  sass_function_profile profile;
  profile.mangled = tile;
  profile.values_by_pc[0x100000] = {{"executed_instructions", 1}};
  EXPECT_EQ(join_blame(profile, sass).unmatched_pc_offsets, std::vector<std::uint64_t>{0x100000});
}

TEST(source_line_blame, refuses_counters_of_another_function) {
  sass_function_profile profile;
  profile.mangled = "_Z5otherv";
  EXPECT_THROW(static_cast<void>(join_blame(profile, tile_sass())), input_error);
}

TEST(blame_diff, lists_changed_lines_by_size_of_change) {
  const kernel_sass sass = tile_sass();
  std::uint64_t pc_a = 0;
  std::uint64_t pc_b = 0;
  const kernel_blame before = join_blame(counters(sass, 5, 0, pc_a, pc_b), sass);
  const kernel_blame after = join_blame(counters(sass, 6, 4063232, pc_a, pc_b), sass);
  const auto changes = diff_blame({before}, {after});
  ASSERT_EQ(changes.size(), 2U);
  EXPECT_EQ(changes[0].before, 0U);
  EXPECT_EQ(changes[0].after, 4063232U);
  char pc[16];
  std::snprintf(pc, sizeof pc, "%04lx", static_cast<unsigned long>(pc_b));
  EXPECT_EQ(describe_blamed_line(blamed_line_of(changes[0])),
            "transpose.cu:" + std::to_string(line_of(sass, pc_b)) + "  PC " + pc +
                "  shared wavefronts 0 -> 4063232");
  EXPECT_EQ(changes[1].before, 5U);
  EXPECT_EQ(changes[1].after, 6U);
  EXPECT_TRUE(diff_blame({after}, {after}).empty());
}

TEST(source_line_blame, derives_the_excess_over_the_ideal_count_per_instruction) {
  const kernel_sass sass = tile_sass();
  std::uint64_t pc_a = 0;
  std::uint64_t pc_b = 0;
  sass_function_profile counted = counters(sass, 0, 0, pc_a, pc_b);
  // transpose/smem_unpadded?n=2048's conflicted store: 32 wavefronts where 1 would do, 131072 times.
  counted.values_by_pc[pc_b] = {{"shared_wavefronts", 4194304}, {"shared_wavefronts_ideal", 131072}};
  counted.values_by_pc[pc_a] = {{"shared_wavefronts", 5}, {"shared_wavefronts_ideal", 9}};
  const kernel_blame blame = join_blame(counted, sass);
  const auto ranked = rank_lines(blame, "shared_excess_wavefronts");
  ASSERT_EQ(ranked.size(), 1U);  // pc_a's count is below its ideal: no excess, not ranked
  EXPECT_EQ(ranked[0]->values.at("shared_excess_wavefronts"), 4063232U);

  sass_profile profile;
  profile.metrics = {{"executed_instructions", "smsp__sass_inst_executed"},
                     {"shared_wavefronts", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"},
                     {"shared_wavefronts_ideal", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"}};
  EXPECT_EQ(blamed_metric_names(profile),
            (std::vector<std::string>{"shared_excess_wavefronts", "executed_instructions",
                                      "shared_wavefronts", "shared_wavefronts_ideal"}));
  profile.metrics.pop_back();
  EXPECT_EQ(blamed_metric_names(profile).front(), "executed_instructions");
}

TEST(sass_profile, survives_a_json_round_trip) {
  sass_profile profile;
  profile.gpu = "NVIDIA H200";
  profile.chip = "GH100";
  profile.compute_capability = 90;
  profile.case_name = "transpose/smem_tile";
  profile.binary = self;
  profile.metrics = {{"shared_wavefronts", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"}};
  std::uint64_t pc_a = 0;
  std::uint64_t pc_b = 0;
  profile.functions.push_back(counters(tile_sass(), 3, 9, pc_a, pc_b));
  profile.functions[0].cubin_crc = 123456789U;
  const sass_profile back = sass_profile_from_json(to_json(profile), "mem.json");
  EXPECT_EQ(to_json(back), to_json(profile));
  const auto joined = join_profile(back, self, true);
  ASSERT_EQ(joined.size(), 1U);
  EXPECT_EQ(joined[0].architecture, "sm_90");
}

TEST(sass_profile, names_the_field_at_fault) {
  nlohmann::json json = {{"format", "counterguard-sass-profile"}, {"version", 1}, {"gpu", 3}};
  try {
    static_cast<void>(sass_profile_from_json(json, "bad.json"));
    FAIL();
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("gpu"), std::string::npos) << e.what();
  }
}

TEST(sass_profile, a_profile_for_an_architecture_the_binary_lacks_is_an_input_error) {
  sass_profile profile;
  profile.gpu = "NVIDIA B200";
  profile.chip = "GB100";
  profile.compute_capability = 100;
  profile.functions.push_back({tile, "smem_tile", 0, {}});
  EXPECT_THROW(static_cast<void>(join_profile(profile, self, true)), input_error);
}

TEST(sass_metric_names, maps_friendly_names_to_the_chips_names) {
  const std::vector<std::string> available = {"smsp__sass_inst_executed",
                                              "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"};
  const auto chosen =
      choose_sass_metrics({"shared_wavefronts", "smsp__sass_inst_executed"}, available, "GH100");
  ASSERT_EQ(chosen.size(), 2U);
  EXPECT_EQ(chosen[0].cupti, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared");
  EXPECT_EQ(chosen[1].friendly, "smsp__sass_inst_executed");
  std::vector<std::string> skipped;
  EXPECT_EQ(choose_sass_metrics({}, available, "GH100", &skipped).size(), 2U);
  EXPECT_FALSE(skipped.empty());
}

TEST(sass_metric_names, an_unknown_metric_lists_the_available_names) {
  try {
    static_cast<void>(choose_sass_metrics({"global_sectors"}, {"smsp__sass_inst_executed"}, "GH100"));
    FAIL();
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("smsp__sass_inst_executed"), std::string::npos) << e.what();
  }
  EXPECT_THROW(static_cast<void>(choose_sass_metrics({"no_such"}, {"smsp__sass_inst_executed"}, "GH100")),
               input_error);
}

}  // namespace
}  // namespace counterguard
