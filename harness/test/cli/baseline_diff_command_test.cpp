// SPDX-License-Identifier: Apache-2.0
// `counterguard baseline diff OLD NEW` end to end on copies of the committed H200 baselines: exit status 1
// only when a value or band moved (a new GPU key included), 0 for metadata alone, 2 for bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

namespace fs = std::filesystem;

const std::string committed = std::string(COUNTERGUARD_SOURCE_DIR) + "/baselines";
const std::string key = "GH100-132sm-cuda13";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// old/ and new/: two copies of the committed baselines.
class baseline_copies : public scratch_directory {
 public:
  baseline_copies() {
    fs::copy(committed, path() / "old", fs::copy_options::recursive);
    fs::copy(committed, path() / "new", fs::copy_options::recursive);
  }
  [[nodiscard]] std::string old_dir() const { return (path() / "old").string(); }
  [[nodiscard]] std::string new_dir() const { return (path() / "new").string(); }
  // Replaces the first `from` in new/<key>/<suite>.yaml by `to`.
  void edit_new(const std::string& suite, const std::string& from, const std::string& to) const {
    const fs::path file = path() / "new" / key / (suite + ".yaml");
    std::string text = read_text(file);
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    write("new/" + key + "/" + suite + ".yaml", text);
  }
  [[nodiscard]] command_result diff(const std::string& extra = {}) const {
    return run_counterguard("baseline diff '" + old_dir() + "' '" + new_dir() + "' " + extra);
  }
};

TEST(baseline_diff_command, the_same_baselines_exit_0) {
  const baseline_copies dirs;
  const command_result r = dirs.diff();
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "No baseline value or band changed.")) << r.output;
  EXPECT_TRUE(contains(r.output, "0 baseline entries changed in 0 file(s)")) << r.output;
}

TEST(baseline_diff_command, a_new_date_and_commit_alone_exit_0) {
  const baseline_copies dirs;
  const fs::path file = dirs.path() / "new" / key / "transpose.yaml";
  std::string text = read_text(file);
  text = std::regex_replace(text, std::regex("  date: [^\n]*"), "  date: 2026-12-24T03:17:00Z");
  text = std::regex_replace(text, std::regex("  git_commit: [^\n]*"),
                            "  git_commit: ffffffffffffffffffffffffffffffffffffffff");
  ASSERT_NE(text, read_text(file));
  dirs.write("new/" + key + "/transpose.yaml", text);
  const command_result r = dirs.diff();
  EXPECT_EQ(r.status, 0) << r.output;
}

TEST(baseline_diff_command, a_changed_value_exits_1_naming_case_and_metric) {
  const baseline_copies dirs;
  dirs.edit_new("transpose",
                "global_store_sectors: {value: 1048576, class: exact, min: 1048576, max: 1048576",
                "global_store_sectors: {value: 2097152, class: exact, min: 2097152, max: 2097152");
  const command_result r = dirs.diff();
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "## Baseline changes: `transpose` on `GH100-132sm-cuda13`")) << r.output;
  EXPECT_TRUE(contains(r.output,
                       "| `transpose/naive?n=1024` | (total) | `global_store_sectors` | 1048576 | 2097152 |"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "1 baseline entry changed in 1 file(s)")) << r.output;
}

TEST(baseline_diff_command, a_new_gpu_key_exits_1) {
  const baseline_copies dirs;
  fs::create_directories(dirs.path() / "new" / "GA100-108sm-cuda13");
  std::string text = read_text(dirs.path() / "new" / key / "spills.yaml");
  text.replace(text.find("gpu_key: " + key), 9 + key.size(), "gpu_key: GA100-108sm-cuda13");
  dirs.write("new/GA100-108sm-cuda13/spills.yaml", text);
  const command_result r = dirs.diff();
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "## Baseline changes: `spills` on `GA100-108sm-cuda13`")) << r.output;
  EXPECT_TRUE(contains(r.output, "### Added")) << r.output;
}

TEST(baseline_diff_command, summary_file_stays_within_its_limit_and_keeps_the_full_text_beside_it) {
  const baseline_copies dirs;
  fs::remove_all(dirs.path() / "old" / key);  // a first refresh: every entry is new
  const std::string summary = (dirs.path() / "out" / "diff.md").string();
  const command_result r = dirs.diff("--quiet --summary '" + summary + "' --summary-limit 4000");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_FALSE(contains(r.output, "### Added")) << "--quiet prints only the count";
  const std::string bounded = read_text(summary);
  EXPECT_LE(bounded.size(), 4000U);
  EXPECT_TRUE(contains(bounded, "diff.full.md")) << bounded;
  EXPECT_GT(read_text(dirs.path() / "out" / "diff.full.md").size(), 4000U);
}

TEST(baseline_diff_command, a_missing_directory_exits_2) {
  const baseline_copies dirs;
  const command_result r =
      run_counterguard("baseline diff '" + dirs.old_dir() + "/nothing' '" + dirs.new_dir() + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "no such baseline directory")) << r.output;
}

TEST(baseline_diff_command, a_malformed_baseline_exits_2_naming_the_file) {
  const baseline_copies dirs;
  dirs.edit_new("spills", "class: static", "class: sometimes");
  const command_result r = dirs.diff();
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "spills.yaml")) << r.output;
}

}  // namespace
}  // namespace counterguard::test
