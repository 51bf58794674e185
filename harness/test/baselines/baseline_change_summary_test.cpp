// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_change_summary.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "baseline_test_support.hpp"

namespace counterguard {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

baseline_change change(baseline_change::kind what, const std::string& instance, const std::string& metric,
                       std::optional<double> before, std::optional<double> after) {
  baseline_change c;
  c.what = what;
  c.instance = instance;
  c.kernel = baseline_total_key;
  c.metric = metric;
  if (before)
    c.before = test::entry(*before);
  if (after)
    c.after = test::entry(*after);
  return c;
}

// A refresh of `suite` that adds `added` entries (a first refresh) and changes `changed` others.
baseline_update_result refresh(const std::string& suite, std::size_t added, std::size_t changed) {
  baseline_update_result update;
  update.file.suite = suite;
  update.file.gpu_key = "GH100-132sm-cuda13";
  for (std::size_t i = 0; i < changed; ++i) {
    update.changes.push_back(change(baseline_change::kind::changed, suite + "/changed?i=" + std::to_string(i),
                                    "global_store_sectors", 8.0, 16.0));
  }
  for (std::size_t i = 0; i < added; ++i) {
    update.changes.push_back(change(baseline_change::kind::added, suite + "/case?n=" + std::to_string(i),
                                    "shared_store_bank_conflicts_per_request", std::nullopt, 4063232.0));
  }
  update.measured.push_back(suite + "/case");
  return update;
}

// What the command line printed before summaries had a limit: each suite's summary and a blank line.
std::string concatenated(const std::vector<baseline_update_result>& updates) {
  std::string md;
  for (const auto& update : updates)
    md += render_change_summary_markdown(update) + "\n";
  return md;
}

TEST(change_summaries_markdown, a_small_refresh_is_every_suite_summary_unchanged) {
  const std::vector<baseline_update_result> updates{refresh("transpose", 3, 1), refresh("atomics", 2, 0)};
  EXPECT_EQ(render_change_summaries_markdown(updates), concatenated(updates));
  EXPECT_EQ(render_change_summaries_markdown(updates).find("not listed"), std::string::npos);
}

TEST(change_summaries_markdown, a_large_refresh_stays_within_the_limit) {
  std::vector<baseline_update_result> updates;
  for (const char* suite : {"atomics", "coalescing", "transpose", "matmul"})
    updates.push_back(refresh(suite, 1500, 5));
  ASSERT_GT(concatenated(updates).size(), 4 * default_markdown_limit);
  const std::string md =
      render_change_summaries_markdown(updates, {default_markdown_limit, "out/summary.full.md"});
  EXPECT_LE(md.size(), default_markdown_limit);
  EXPECT_GT(md.size(), default_markdown_limit - 500) << "the budget should be used";
}

TEST(change_summaries_markdown, over_the_limit_keeps_every_heading_and_count) {
  std::vector<baseline_update_result> updates;
  for (const char* suite : {"atomics", "coalescing", "transpose"})
    updates.push_back(refresh(suite, 2000, 0));
  const std::string md = render_change_summaries_markdown(updates, {20000, "out/summary.full.md"});
  for (const char* suite : {"atomics", "coalescing", "transpose"})
    EXPECT_NE(md.find(std::string("## Baseline update: `") + suite + "` on `GH100-132sm-cuda13`"),
              std::string::npos);
  EXPECT_EQ(count(md, "1 case instance(s) measured: 0 changed, 2000 added, 0 removed."), 3U);
}

TEST(change_summaries_markdown, over_the_limit_lists_changed_values_of_every_suite_before_any_addition) {
  std::vector<baseline_update_result> updates{refresh("atomics", 3000, 0), refresh("transpose", 3000, 4)};
  const std::string md = render_change_summaries_markdown(updates, {30000, "out/summary.full.md"});
  EXPECT_EQ(count(md, "| `transpose/changed?i="), 4U) << "changes of the second suite come before additions";
  EXPECT_NE(md.find("### Changed"), std::string::npos);
}

TEST(change_summaries_markdown, over_the_limit_ends_with_how_many_entries_were_left_out_and_where) {
  const std::vector<baseline_update_result> updates{refresh("atomics", 3000, 0)};
  const std::string md = render_change_summaries_markdown(updates, {20000, "out/summary.full.md"});
  const std::size_t listed = count(md, "| `atomics/case?n=");
  ASSERT_GT(listed, 0U);
  const std::string line = "_**" + std::to_string(3000 - listed) +
                           " of 3000 entries are not listed here** for size; " +
                           "all of them are in `out/summary.full.md`._\n";
  EXPECT_EQ(md.substr(md.size() - line.size()), line) << md.substr(md.size() - 300);
}

TEST(change_summaries_markdown, no_limit_keeps_everything) {
  std::vector<baseline_update_result> updates{refresh("atomics", 3000, 0)};
  EXPECT_EQ(render_change_summaries_markdown(updates, {0, {}}), concatenated(updates));
}

TEST(change_summaries_markdown, a_first_refresh_of_the_builtin_suites_fits_a_pull_request) {
  // As the first H200 refresh wrote it (105,660 bytes): every committed H200 baseline entry added.
  std::vector<baseline_update_result> updates;
  const std::filesystem::path directory =
      std::filesystem::path(COUNTERGUARD_SOURCE_DIR) / "baselines" / "GH100-132sm-cuda13";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() == ".yaml")  // not the per-line baselines (<suite>.lines.json)
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    baseline_update_result update;
    update.file = *load_baseline_file(path.string());
    for (const auto& [instance, kernels] : update.file.cases) {
      update.measured.push_back(instance);
      for (const auto& [kernel, metrics] : kernels) {
        for (const auto& [metric, entry] : metrics) {
          baseline_change c;
          c.what = baseline_change::kind::added;
          c.instance = instance;
          c.kernel = kernel;
          c.metric = metric;
          c.after = entry;
          update.changes.push_back(c);
        }
      }
    }
    updates.push_back(update);
  }
  ASSERT_EQ(updates.size(), 11U);
  ASSERT_GT(concatenated(updates).size(), 65536U);
  const std::string md = render_change_summaries_markdown(updates, {default_markdown_limit, "out/full.md"});
  EXPECT_LE(md.size(), default_markdown_limit);
  EXPECT_EQ(count(md, "## Baseline update: `"), 11U);
  EXPECT_NE(md.find(" entries are not listed here** for size; all of them are in `out/full.md`."),
            std::string::npos);
}

}  // namespace
}  // namespace counterguard
