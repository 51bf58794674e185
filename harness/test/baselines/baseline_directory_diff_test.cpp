// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_directory_diff.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "baseline_test_support.hpp"
#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

// Two baseline directories under one scratch directory, removed at the end of the test.
class baseline_directories {
 public:
  baseline_directories() : m_root(test::make_temporary_directory()) {
    fs::create_directories(old_dir());
    fs::create_directories(new_dir());
  }
  baseline_directories(const baseline_directories&) = delete;
  baseline_directories& operator=(const baseline_directories&) = delete;
  ~baseline_directories() {
    std::error_code ignored;
    fs::remove_all(m_root, ignored);
  }
  [[nodiscard]] std::string old_dir() const { return m_root + "/old"; }
  [[nodiscard]] std::string new_dir() const { return m_root + "/new"; }
  static void save(const std::string& directory, const baseline_file& file) {
    save_baseline_file(baseline_path(directory, file.gpu_key, file.suite), file);
  }

 private:
  std::string m_root;
};

const std::string smem = "transpose/smem?pad=1,n=2048";

TEST(baseline_directory_diff, identical_directories_have_no_difference) {
  const baseline_directories dirs;
  baseline_directories::save(dirs.old_dir(), test::sample_file());
  baseline_directories::save(dirs.new_dir(), test::sample_file());
  EXPECT_TRUE(diff_baseline_directories(dirs.old_dir(), dirs.new_dir()).empty());
}

TEST(baseline_directory_diff, metadata_and_schema_version_alone_are_no_difference) {
  const baseline_directories dirs;
  baseline_directories::save(dirs.old_dir(), test::sample_file());
  baseline_file redated = test::sample_file();
  redated.metadata.date = "2026-12-24T03:17:00Z";
  redated.metadata.git_commit = std::string(40, 'f');
  redated.metadata.driver = "590.10";
  redated.schema_version = 1;
  baseline_directories::save(dirs.new_dir(), redated);
  EXPECT_TRUE(diff_baseline_directories(dirs.old_dir(), dirs.new_dir()).empty());
}

TEST(baseline_directory_diff, a_changed_value_is_listed_with_both_entries) {
  const baseline_directories dirs;
  baseline_directories::save(dirs.old_dir(), test::sample_file());
  baseline_file changed = test::sample_file();
  changed.cases[smem]["total"]["shared_store_bank_conflicts"] = test::entry(32);
  baseline_directories::save(dirs.new_dir(), changed);
  const auto diffs = diff_baseline_directories(dirs.old_dir(), dirs.new_dir());
  ASSERT_EQ(diffs.size(), 1U);
  EXPECT_EQ(diffs[0].relative_path, "GH100-132sm-cuda13/transpose.yaml");
  EXPECT_TRUE(diffs[0].in_old && diffs[0].in_new);
  ASSERT_EQ(diffs[0].changes.size(), 1U);
  const baseline_change& c = diffs[0].changes[0];
  EXPECT_EQ(c.what, baseline_change::kind::changed);
  EXPECT_EQ(c.instance, smem);
  EXPECT_EQ(c.kernel, "total");
  EXPECT_EQ(c.metric, "shared_store_bank_conflicts");
  EXPECT_EQ(c.before->value, 0.0);
  EXPECT_EQ(c.after->value, 32.0);
}

TEST(baseline_directory_diff, a_changed_band_with_the_same_value_is_a_difference) {
  const baseline_directories dirs;
  baseline_directories::save(dirs.old_dir(), test::sample_file());
  baseline_file wider = test::sample_file();
  wider.cases[smem]["total"]["duration_ns"] = test::noisy(10000, 9000, 11000);
  baseline_directories::save(dirs.new_dir(), wider);
  const auto diffs = diff_baseline_directories(dirs.old_dir(), dirs.new_dir());
  ASSERT_EQ(diffs.size(), 1U);
  ASSERT_EQ(diffs[0].changes.size(), 1U);
  EXPECT_EQ(diffs[0].changes[0].metric, "duration_ns");
}

TEST(baseline_directory_diff, a_new_gpu_key_is_all_added) {
  const baseline_directories dirs;
  baseline_directories::save(dirs.old_dir(), test::sample_file());
  baseline_directories::save(dirs.new_dir(), test::sample_file());
  baseline_file other_gpu = test::sample_file();
  other_gpu.gpu_key = "GA100-108sm-cuda13";
  baseline_directories::save(dirs.new_dir(), other_gpu);
  const auto diffs = diff_baseline_directories(dirs.old_dir(), dirs.new_dir());
  ASSERT_EQ(diffs.size(), 1U);
  EXPECT_EQ(diffs[0].gpu_key, "GA100-108sm-cuda13");
  EXPECT_FALSE(diffs[0].in_old);
  EXPECT_TRUE(diffs[0].in_new);
  ASSERT_EQ(diffs[0].changes.size(), 4U);
  for (const auto& c : diffs[0].changes)
    EXPECT_EQ(c.what, baseline_change::kind::added);
}

TEST(baseline_directory_diff, a_file_only_in_the_old_directory_is_all_removed) {
  const baseline_directories dirs;
  baseline_directories::save(dirs.old_dir(), test::sample_file());
  const auto diffs = diff_baseline_directories(dirs.old_dir(), dirs.new_dir());
  ASSERT_EQ(diffs.size(), 1U);
  EXPECT_TRUE(diffs[0].in_old);
  EXPECT_FALSE(diffs[0].in_new);
  for (const auto& c : diffs[0].changes)
    EXPECT_EQ(c.what, baseline_change::kind::removed);
}

TEST(baseline_directory_diff, changes_are_in_file_order_total_first) {
  baseline_file before = test::sample_file();
  baseline_file after = before;
  after.cases["transpose/naive?n=2048"]["counterguard::kernels::transpose::naive"]["global_store_sectors"] =
      test::entry(1);
  after.cases["transpose/naive?n=2048"]["total"]["global_load_sectors_per_request"] = test::entry(8);
  after.cases["transpose/a_new_case"]["total"]["spill_store_bytes"] =
      test::entry(0, metric_class::static_resource);
  const auto changes = diff_baseline_cases(before.cases, after.cases);
  ASSERT_EQ(changes.size(), 3U);
  EXPECT_EQ(changes[0].instance, "transpose/a_new_case");
  EXPECT_EQ(changes[0].what, baseline_change::kind::added);
  EXPECT_EQ(changes[1].kernel, "total");
  EXPECT_EQ(changes[2].kernel, "counterguard::kernels::transpose::naive");
}

TEST(baseline_directory_diff, files_that_are_not_gpu_key_suite_yaml_are_ignored) {
  const baseline_directories dirs;
  test::write_text(dirs.new_dir() + "/README.md", "notes");
  test::write_text(dirs.new_dir() + "/stray.yaml", "not: a baseline");
  fs::create_directories(dirs.new_dir() + "/GH100-132sm-cuda13");
  test::write_text(dirs.new_dir() + "/GH100-132sm-cuda13/transpose.yaml.tmp.123", "half written");
  EXPECT_TRUE(diff_baseline_directories(dirs.old_dir(), dirs.new_dir()).empty());
}

TEST(baseline_directory_diff, a_missing_directory_is_an_input_error_naming_it) {
  const baseline_directories dirs;
  try {
    (void)diff_baseline_directories(dirs.old_dir() + "/absent", dirs.new_dir());
    FAIL() << "expected an input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("absent"), std::string::npos) << e.what();
  }
}

TEST(baseline_directory_diff, a_malformed_file_is_an_input_error_naming_it) {
  const baseline_directories dirs;
  fs::create_directories(dirs.new_dir() + "/GH100-132sm-cuda13");
  test::write_text(dirs.new_dir() + "/GH100-132sm-cuda13/transpose.yaml", "schema_version: [1\n");
  try {
    (void)diff_baseline_directories(dirs.old_dir(), dirs.new_dir());
    FAIL() << "expected an input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("transpose.yaml"), std::string::npos) << e.what();
  }
}

TEST(baseline_diff_markdown, no_difference_says_so) {
  EXPECT_EQ(render_baseline_diff_markdown({}), "No baseline value or band changed.\n");
}

TEST(baseline_diff_markdown, lists_each_file_with_the_instances_that_differ) {
  baseline_file before = test::sample_file();
  baseline_file after = before;
  after.cases[smem]["total"]["shared_store_bank_conflicts"] = test::entry(32);
  baseline_file_diff diff;
  diff.relative_path = "GH100-132sm-cuda13/transpose.yaml";
  diff.gpu_key = before.gpu_key;
  diff.suite = before.suite;
  diff.changes = diff_baseline_cases(before.cases, after.cases);
  const std::string md = render_baseline_diff_markdown({diff});
  EXPECT_NE(md.find("## Baseline changes: `transpose` on `GH100-132sm-cuda13`"), std::string::npos) << md;
  EXPECT_NE(md.find("1 case instance(s) differ: 1 changed, 0 added, 0 removed."), std::string::npos) << md;
  EXPECT_NE(md.find("| `transpose/smem?pad=1,n=2048` | (total) | `shared_store_bank_conflicts` | 0 | 32 |"),
            std::string::npos)
      << md;
}

TEST(baseline_diff_markdown, stays_within_its_budget) {
  baseline_file_diff diff;
  diff.gpu_key = "GH100-132sm-cuda13";
  diff.suite = "big";
  std::map<std::string, baseline_case> after;
  for (int i = 0; i < 3000; ++i)
    after["big/case?i=" + std::to_string(i)]["total"]["global_store_sectors"] = test::entry(i);
  diff.changes = diff_baseline_cases({}, after);
  const std::string md = render_baseline_diff_markdown({diff}, markdown_budget{20000, "out/diff.full.md"});
  EXPECT_LE(md.size(), 20000U);
  EXPECT_NE(md.find("out/diff.full.md"), std::string::npos);
}

}  // namespace
}  // namespace counterguard
