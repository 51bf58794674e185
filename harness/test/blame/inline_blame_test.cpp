// SPDX-License-Identifier: Apache-2.0
// Inlined code blamed on the user's line (the outermost frame outside the toolkit and --blame-external
// directories), on kernels compiled with -lineinfo into this test's build (statics' inline_chains.cu
// fixture); and a change of instruction kind on a line as a change of that line.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "counterguard/blame/blame_diff.hpp"
#include "counterguard/blame/line_profile.hpp"
#include "counterguard/blame/source_line_blame.hpp"
#include "counterguard/results/case_blame.hpp"
#include "counterguard/runner/regression_blame.hpp"

namespace counterguard {
namespace {

int source_line_containing(const std::string& fragment) {
  std::ifstream source(INLINE_CHAINS_SOURCE);
  std::string line;
  int number = 0;
  while (std::getline(source, line)) {
    ++number;
    if (line.find(fragment) != std::string::npos)
      return number;
  }
  ADD_FAILURE() << fragment << " is not in " << INLINE_CHAINS_SOURCE;
  return 0;
}

std::string place_of(const std::string& marker) {
  return "inline_chains.cu:" + std::to_string(source_line_containing(marker));
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

kernel_sass sass_of(const std::string& kernel) {
  return read_kernel_sass(INLINE_CHAINS, kernel, {"sm_90", true}).at(0);
}

// One global sector per instruction of `file` (a header whose code is inlined), one executed instruction for
// every instruction.
sass_function_profile counted_in(const kernel_sass& sass, const std::string& file) {
  sass_function_profile profile;
  profile.mangled = sass.mangled;
  profile.function = sass.function;
  for (const auto& instruction : sass.instructions) {
    auto& values = profile.values_by_pc[instruction.offset];
    values["executed_instructions"] = 1;
    if (instruction.position && ends_with(instruction.position->file, file))
      values["global_sectors"] = 1;
  }
  return profile;
}

std::string describe(const blame_change& change) {
  return describe_blamed_line(blamed_line_of(change));
}

std::vector<std::string> places_with(const kernel_blame& blame, const std::string& metric) {
  std::vector<std::string> places;
  for (const blamed_line* line : rank_lines(blame, metric))
    places.push_back(line_place(line->position));
  return places;
}

TEST(inline_blame, an_atomic_add_is_blamed_on_the_line_that_calls_it) {
  const kernel_sass sass = sass_of("count_unused");
  const kernel_blame blame = join_blame(counted_in(sass, "device_atomic_functions.hpp"), sass);
  EXPECT_EQ(places_with(blame, "global_sectors"),
            std::vector<std::string>{place_of("marker: atomic unused")});
}

TEST(inline_blame, the_blamed_line_shows_the_chain_down_to_the_toolkits_line) {
  const kernel_sass sass = sass_of("count_unused");
  const kernel_blame blame = join_blame(counted_in(sass, "device_atomic_functions.hpp"), sass);
  const auto ranked = rank_lines(blame, "global_sectors");
  ASSERT_EQ(ranked.size(), 1U);
  const std::vector<std::string> chain = inline_chain(top_instruction(blame, *ranked[0], "global_sectors"));
  ASSERT_EQ(chain.size(), 2U);
  EXPECT_EQ(chain[0], place_of("marker: atomic unused"));
  EXPECT_EQ(chain[1].rfind("device_atomic_functions.hpp:", 0), 0U) << chain[1];
  EXPECT_EQ(chain_text(chain), chain[0] + " -> " + chain[1]);
}

TEST(inline_blame, a_device_function_in_a_projects_header_is_blamed_on_its_call) {
  const kernel_sass sass = sass_of("scale");
  const kernel_blame blame = join_blame(counted_in(sass, "scale.cuh"), sass);
  EXPECT_EQ(places_with(blame, "global_sectors"), std::vector<std::string>{place_of("marker: helper call")});
}

TEST(inline_blame, a_cooperative_groups_reduction_is_blamed_on_the_users_reduce_call) {
  const kernel_sass sass = sass_of("group_sum");
  const kernel_blame blame = join_blame(counted_in(sass, "reduce.h"), sass);
  EXPECT_EQ(places_with(blame, "global_sectors"), std::vector<std::string>{place_of("marker: reduce call")});
}

TEST(inline_blame, a_shuffle_is_blamed_on_the_loop_that_calls_it) {
  const kernel_sass sass = sass_of("shuffle_sum");
  const kernel_blame blame = join_blame(counted_in(sass, "sm_30_intrinsics.hpp"), sass);
  EXPECT_EQ(places_with(blame, "global_sectors"), std::vector<std::string>{place_of("marker: shuffle call")});
}

TEST(inline_blame, a_librarys_kernel_is_the_line_blamed_unless_its_directory_is_external) {
  const kernel_sass sass = sass_of("library_apply");
  const sass_function_profile counters = counted_in(sass, "device_atomic_functions.hpp");
  const kernel_blame as_is = join_blame(counters, sass);
  const std::vector<std::string> library = places_with(as_is, "global_sectors");
  ASSERT_EQ(library.size(), 1U);
  EXPECT_EQ(library[0].rfind("apply.cuh:", 0), 0U) << library[0];

  line_attribution external;
  external.external_dirs = {"third_party"};
  const kernel_blame skipped = join_blame(counters, sass, external);
  EXPECT_EQ(places_with(skipped, "global_sectors"), std::vector<std::string>{place_of("marker: user step")});
}

TEST(inline_blame, innermost_attribution_keys_lines_by_the_instructions_own_lines) {
  const kernel_sass sass = sass_of("count_unused");
  line_attribution innermost;
  innermost.innermost = true;
  const kernel_blame blame = join_blame(counted_in(sass, "device_atomic_functions.hpp"), sass, innermost);
  const std::vector<std::string> places = places_with(blame, "global_sectors");
  ASSERT_EQ(places.size(), 1U);
  EXPECT_EQ(places[0].rfind("device_atomic_functions.hpp:", 0), 0U) << places[0];
  // The user's line is still known, for display.
  const auto ranked = rank_lines(blame, "global_sectors");
  EXPECT_EQ(inline_chain(top_instruction(blame, *ranked[0], "global_sectors")).front(),
            place_of("marker: atomic unused"));
}

TEST(inline_blame, the_outermost_frame_outside_the_toolkit_and_external_dirs_is_blamed) {
  const std::vector<source_position> frames{{"/lib/include/thrust/for_each.h", 10, 0},
                                            {"/src/app/kernels.cu", 111, 0},
                                            {"/src/app/helpers/step.cuh", 5, 0},
                                            {"/usr/local/cuda/include/device_atomic_functions.hpp", 226, 0}};
  const std::vector<std::string> toolkit{"/usr/local/cuda/include", "/lib/include"};
  EXPECT_EQ(blamed_frame_of(frames, toolkit, {}), 1U);
  EXPECT_EQ(blamed_frame_of(frames, {}, {}), 0U);
  EXPECT_EQ(blamed_frame_of(frames, toolkit, {"src/app"}), 3U);  // every frame excluded: its own line
  EXPECT_EQ(blamed_frame_of({}, toolkit, {}), 0U);
}

// A blame of one line, `kernels.cu:111`, whose instructions are `opcodes` (nvdisasm's text known), each
// carrying `sectors` global sectors.
kernel_blame one_line_of(const std::vector<std::string>& opcodes, std::uint64_t sectors) {
  kernel_blame blame;
  blame.function = "count";
  blame.mangled = "_Z5countPy";
  std::uint64_t pc = 0;
  for (const auto& opcode : opcodes) {
    blamed_instruction instruction;
    instruction.pc_offset = pc;
    pc += 16;
    instruction.opcode = opcode;
    instruction.sass = opcode + " [R2.64], R4";
    instruction.position = source_position{"/usr/local/cuda/include/device_atomic_functions.hpp", 226, 0};
    instruction.frames = {{"/src/app/kernels.cu", 111, 0}, *instruction.position};
    instruction.values["global_sectors"] = sectors;
    blame.instructions.push_back(instruction);
  }
  blame.toolkit_include_dirs = {"/usr/local/cuda/include"};
  attribute_lines(blame, {});
  return blame;
}

TEST(kind_change, a_reduction_that_became_an_atomic_is_a_change_of_its_line_with_alike_counters) {
  const auto changes = diff_blame({one_line_of({"RED.E.ADD.64.STRONG.GPU"}, 32768)},
                                  {one_line_of({"ATOMG.E.ADD.64.STRONG.GPU"}, 32768)}, {"global_sectors"});
  ASSERT_EQ(changes.size(), 1U);
  const blame_change& change = changes[0];
  EXPECT_EQ(change.place, "kernels.cu:111");
  EXPECT_EQ(change.metric, "global_sectors");
  EXPECT_EQ(change.before, 32768U);
  EXPECT_EQ(change.after, 32768U);
  EXPECT_EQ(change.opcodes_before, std::vector<std::string>{"RED.E.ADD.64.STRONG.GPU"});
  EXPECT_EQ(change.opcodes_after, std::vector<std::string>{"ATOMG.E.ADD.64.STRONG.GPU"});
  EXPECT_EQ(change.sass, "ATOMG.E.ADD.64.STRONG.GPU [R2.64], R4");
  EXPECT_EQ(describe(change),
            "kernels.cu:111 -> device_atomic_functions.hpp:226  ATOMG.E.ADD.64.STRONG.GPU [R2.64], R4  "
            "instruction kinds RED.E.ADD.64.STRONG.GPU -> ATOMG.E.ADD.64.STRONG.GPU, global sectors 32768 "
            "(unchanged)");
}

TEST(kind_change, a_counter_the_per_line_baseline_lacks_does_not_hide_the_change_of_kind) {
  kernel_blame after = one_line_of({"ATOMG.E.ADD.64.STRONG.GPU"}, 32768);
  after.instructions[0].values["thread_instructions_predicated_on"] = 22052864;
  attribute_lines(after, {});
  const auto changes =
      diff_blame({one_line_of({"RED.E.ADD.64.STRONG.GPU"}, 32768)}, {after}, {"global_sectors"});
  const auto kind_change = std::find_if(changes.begin(), changes.end(),
                                        [](const blame_change& c) { return c.metric == "global_sectors"; });
  ASSERT_NE(kind_change, changes.end());
  EXPECT_EQ(kind_change->opcodes_before, std::vector<std::string>{"RED.E.ADD.64.STRONG.GPU"});
  EXPECT_EQ(kind_change->opcodes_after, std::vector<std::string>{"ATOMG.E.ADD.64.STRONG.GPU"});
}

TEST(kind_change, a_wider_load_carries_its_change_of_kind_on_the_changed_counter) {
  const auto changes = diff_blame({one_line_of({"LDG.E", "LDG.E"}, 4)}, {one_line_of({"LDG.E.128"}, 4)});
  ASSERT_EQ(changes.size(), 1U);
  EXPECT_EQ(changes[0].before, 8U);
  EXPECT_EQ(changes[0].after, 4U);
  EXPECT_EQ(changes[0].opcodes_before, std::vector<std::string>{"LDG.E"});
  EXPECT_EQ(changes[0].opcodes_after, std::vector<std::string>{"LDG.E.128"});
  EXPECT_NE(describe(changes[0]).find("global sectors 8 -> 4, instruction kinds LDG.E -> LDG.E.128"),
            std::string::npos)
      << describe(changes[0]);
}

TEST(kind_change, a_new_local_store_on_a_line_is_a_new_kind) {
  const auto changes =
      diff_blame({one_line_of({"STS"}, 0)}, {one_line_of({"STS", "STL"}, 0)}, {"global_sectors"});
  ASSERT_EQ(changes.size(), 1U);
  EXPECT_TRUE(changes[0].opcodes_before.empty());
  EXPECT_EQ(changes[0].opcodes_after, std::vector<std::string>{"STL"});
  EXPECT_NE(describe(changes[0]).find("new instruction kinds STL"), std::string::npos);
}

TEST(kind_change, the_same_kinds_or_kinds_unknown_on_one_side_are_no_change) {
  EXPECT_TRUE(diff_blame({one_line_of({"STS.64"}, 1)}, {one_line_of({"STS.64"}, 1)}).empty());
  kernel_blame without_text = one_line_of({"RED.E.ADD.64.STRONG.GPU"}, 1);
  for (auto& instruction : without_text.instructions)
    instruction.sass.clear();  // read without nvdisasm
  attribute_lines(without_text, {});
  ASSERT_FALSE(without_text.lines.at(0).memory_opcodes.has_value());
  EXPECT_TRUE(diff_blame({without_text}, {one_line_of({"ATOMG.E.ADD.64.STRONG.GPU"}, 1)}).empty());
}

TEST(kind_change, a_per_line_baseline_keeps_the_opcodes_and_chains_of_its_lines) {
  const line_profile profile = make_line_profile({one_line_of({"RED.E.ADD.64.STRONG.GPU"}, 7)}, {});
  ASSERT_EQ(profile.functions.at(0).lines.size(), 1U);
  const line_profile_line& line = profile.functions[0].lines[0];
  EXPECT_EQ(line.place, "kernels.cu:111");
  EXPECT_EQ(line.chains, std::vector<std::string>{"kernels.cu:111 -> device_atomic_functions.hpp:226"});
  ASSERT_TRUE(line.memory_opcodes.has_value());
  EXPECT_EQ(*line.memory_opcodes, std::vector<std::string>{"RED.E.ADD.64.STRONG.GPU"});
  const auto changes = diff_blame(to_kernel_blames(profile), {one_line_of({"ATOMG.E.ADD.64.STRONG.GPU"}, 7)},
                                  {"global_sectors"});
  ASSERT_EQ(changes.size(), 1U);
  EXPECT_EQ(changes[0].opcodes_after, std::vector<std::string>{"ATOMG.E.ADD.64.STRONG.GPU"});
}

}  // namespace
}  // namespace counterguard
