// SPDX-License-Identifier: Apache-2.0
// `counterguard blame --from/--against` on profiles written here for the built-in smem_tile kernel of the
// counterguard binary (the per-PC values are explicit inputs); and the errors that need no GPU.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

const std::string tile = "_ZN12counterguard7kernels9transpose9smem_tileEPKfPfii";

// The PC offsets and lines of smem_tile's instructions, as `counterguard sass` reports them.
nlohmann::json tile_instructions() {
  const command_result sass = run_counterguard("sass --binary '" + std::string(COUNTERGUARD_BINARY) +
                                               "' --kernel " + tile + " --arch sm_90 --lines-only --json -");
  EXPECT_EQ(sass.status, 0) << sass.output;
  const auto first = sass.output.find('[');
  return nlohmann::json::parse(sass.output.substr(first)).at(0).at("instructions");
}

// A profile with `wavefronts` at the first instruction of the last source line that has one.
std::string profile_text(const std::string& chip, std::uint64_t pc, std::uint64_t wavefronts) {
  nlohmann::json profile = {
      {"format", "counterguard-sass-profile"},
      {"version", 1},
      {"gpu", "NVIDIA H200"},
      {"chip", chip},
      {"compute_capability", 90},
      {"case", "transpose/smem_tile"},
      {"binary", COUNTERGUARD_BINARY},
      {"metrics",
       {{{"name", "shared_wavefronts"}, {"cupti", "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"}}}},
      {"dropped_records", 0},
      {"functions",
       {{{"mangled", tile},
         {"function", "counterguard::kernels::transpose::smem_tile"},
         {"cubin_crc", 1},
         {"instructions", {{{"pc_offset", pc}, {"values", {{"shared_wavefronts", wavefronts}}}}}}}}}};
  return profile.dump();
}

TEST(blame_command, ranks_a_recorded_profiles_lines_and_lists_what_changed) {
  const nlohmann::json instructions = tile_instructions();
  const nlohmann::json& last = instructions.back();
  const std::uint64_t pc = last.at("pc_offset").get<std::uint64_t>();
  const std::string place = "transpose.cu:" + std::to_string(last.at("source").at("line").get<int>());
  const scratch_directory scratch;
  const auto before = scratch.write("before.json", profile_text("GH100", pc, 0));
  const auto after = scratch.write("after.json", profile_text("GH100", pc, 4063232));
  const command_result result =
      run_counterguard("blame --lines-only --from '" + after.string() + "' --against '" + before.string() +
                       "' --json '" + (scratch.path() / "out.json").string() + "'");
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("shared wavefronts:"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find(place), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("shared wavefronts 0 -> 4063232"), std::string::npos) << result.output;
  const nlohmann::json out = nlohmann::json::parse(read_text(scratch.path() / "out.json"));
  EXPECT_EQ(out.at("changes").size(), 1U);
  EXPECT_EQ(out.at("changes").at(0).at("after"), 4063232);
}

TEST(blame_command, refuses_to_compare_profiles_of_different_chips) {
  const scratch_directory scratch;
  const auto before = scratch.write("before.json", profile_text("GB100", 0, 1));
  const auto after = scratch.write("after.json", profile_text("GH100", 0, 2));
  const command_result result = run_counterguard("blame --lines-only --from '" + after.string() +
                                                 "' --against '" + before.string() + "'");
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("was recorded on GB100"), std::string::npos) << result.output;
}

TEST(blame_command, an_unknown_case_is_named_before_any_gpu_is_needed) {
  const command_result result = run_counterguard("blame cases --case 'no_such_case*'");
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("no case instance matches 'no_such_case*'"), std::string::npos)
      << result.output;
}

TEST(blame_command, a_malformed_profile_names_the_file_and_field) {
  const scratch_directory scratch;
  const auto bad = scratch.write("bad.json", R"({"format": "counterguard-sass-profile", "version": 1})");
  const command_result result = run_counterguard("blame --from '" + bad.string() + "'");
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("bad.json"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("gpu"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace counterguard::test
