// SPDX-License-Identifier: Apache-2.0
// A refresh keeps the entries it agrees with, so a nightly refresh of an unchanged kernel proposes nothing.
#include "counterguard/baselines/baseline_entry_refresh.hpp"

#include <gtest/gtest.h>

#include "baseline_test_support.hpp"
#include "counterguard/baselines/baseline_change_summary.hpp"
#include "counterguard/baselines/baseline_update.hpp"

namespace counterguard {
namespace {

const std::string instance = "t/a";

metric_traits classify(const std::string& metric) {
  metric_traits traits;
  if (metric == "conflicts")
    traits.cls = metric_class::noisy;
  return traits;
}

std::vector<run_results> refresh_of(const std::vector<double>& conflicts, double sectors = 4096) {
  std::vector<run_results> runs;
  for (const double value : conflicts) {
    run_results run;
    run.metadata.gpu_key = "GH100-132sm-cuda13";
    run.metadata.started_at = "2025-02-01T00:00:00Z";
    case_result result;
    result.instance = instance;
    result.suite = "transpose";
    result.verified = true;
    result.totals["conflicts"] = {value, metric_class::noisy};
    result.totals["sectors"] = {sectors, metric_class::exact};
    run.cases.push_back(result);
    runs.push_back(run);
  }
  return runs;
}

// The file a first refresh of 1000, 1010, 1020 conflicts (5 repetitions' worth of sectors) wrote.
baseline_file first_refresh() {
  return update_baseline(std::nullopt, "transpose", refresh_of({1000, 1010, 1020, 1005, 1015}), classify)
      .file;
}

const baseline_entry& conflicts_of(const baseline_file& file) {
  return file.cases.at(instance).at("total").at("conflicts");
}

TEST(refresh_baseline_entry, a_refresh_inside_the_band_keeps_the_file_byte_identical) {
  const baseline_file existing = first_refresh();
  // Different values, all well inside the band of about 1010 +- 1000 (counts noise model).
  const auto update = update_baseline(existing, "transpose", refresh_of({1100, 930, 1060}), classify);
  EXPECT_TRUE(update.changes.empty());
  EXPECT_EQ(update.kept, 2U);  // the conflicts and the sectors
  EXPECT_EQ(render_baseline_yaml(update.file), render_baseline_yaml(existing));
  EXPECT_EQ(conflicts_of(update.file).n, 5);
}

TEST(refresh_baseline_entry, a_refresh_above_the_band_replaces_the_entry) {
  const baseline_file existing = first_refresh();
  const auto update = update_baseline(existing, "transpose", refresh_of({1100, 2500, 1060}), classify);
  ASSERT_EQ(update.changes.size(), 1U);
  EXPECT_EQ(update.changes[0].metric, "conflicts");
  EXPECT_EQ(conflicts_of(update.file).value, 1100);
  EXPECT_EQ(conflicts_of(update.file).n, 3);
  EXPECT_EQ(update.kept, 1U);
}

TEST(refresh_baseline_entry, a_refresh_below_the_band_replaces_the_entry_too) {
  // An improvement is recorded, else the band would never follow a kernel that got better.
  const baseline_file existing = first_refresh();
  const auto update = update_baseline(existing, "transpose", refresh_of({10, 12, 11}), classify);
  ASSERT_EQ(update.changes.size(), 1U);
  EXPECT_EQ(conflicts_of(update.file).value, 11);
}

TEST(refresh_baseline_entry, a_changed_direction_or_class_replaces_the_entry) {
  baseline_file existing = first_refresh();
  existing.cases[instance]["total"]["conflicts"].direction = metric_direction::higher_is_better;
  existing.cases[instance]["total"]["sectors"].cls = metric_class::static_resource;
  const auto update = update_baseline(existing, "transpose", refresh_of({1000, 1010, 1020}), classify);
  EXPECT_EQ(update.changes.size(), 2U);
  EXPECT_EQ(conflicts_of(update.file).direction, metric_direction::lower_is_better);
  EXPECT_EQ(update.file.cases.at(instance).at("total").at("sectors").cls, metric_class::exact);
}

TEST(refresh_baseline_entry, an_exact_entry_with_the_same_value_is_kept_whatever_the_repeat_count) {
  const baseline_file existing = first_refresh();  // sectors: 4096, n = 5
  const auto same = update_baseline(existing, "transpose", refresh_of({1000, 1010}), classify);
  EXPECT_EQ(same.file.cases.at(instance).at("total").at("sectors").n, 5);
  EXPECT_TRUE(same.changes.empty());
  const auto moved = update_baseline(existing, "transpose", refresh_of({1000, 1010}, 4097), classify);
  ASSERT_EQ(moved.changes.size(), 1U);
  EXPECT_EQ(moved.changes[0].metric, "sectors");
  EXPECT_EQ(moved.file.cases.at(instance).at("total").at("sectors").value, 4097);
}

TEST(refresh_baseline_entry, a_version_1_noisy_entry_gets_the_noise_models_statistics) {
  baseline_file existing = first_refresh();
  baseline_entry& old = existing.cases[instance]["total"]["conflicts"];
  old.mean.reset();
  old.sd.reset();
  old.noise.reset();
  const auto update = update_baseline(existing, "transpose", refresh_of({1000, 1010, 1020}), classify);
  ASSERT_EQ(update.changes.size(), 1U);
  EXPECT_TRUE(conflicts_of(update.file).mean.has_value());
}

TEST(refresh_baseline_entry, a_zero_noisy_baseline_is_kept_while_the_refresh_stays_zero) {
  const auto zero = update_baseline(std::nullopt, "transpose", refresh_of({0, 0, 0, 0, 0}), classify).file;
  EXPECT_TRUE(update_baseline(zero, "transpose", refresh_of({0, 0, 0}), classify).changes.empty());
  EXPECT_EQ(update_baseline(zero, "transpose", refresh_of({0, 1, 0}), classify).changes.size(), 1U);
}

TEST(refresh_baseline_entry, replace_all_replaces_entries_inside_the_band) {
  const baseline_file existing = first_refresh();
  baseline_refresh_options options;
  options.keep_entries_inside_band = false;
  const auto update =
      update_baseline(existing, "transpose", refresh_of({1100, 930, 1060}), classify, options);
  EXPECT_EQ(update.kept, 0U);
  EXPECT_EQ(update.changes.size(), 2U);  // the sectors too: n went from 5 to 3
  EXPECT_EQ(conflicts_of(update.file).value, 1060);
}

TEST(refresh_baseline_entry, the_change_summary_says_how_many_entries_were_kept) {
  const baseline_file existing = first_refresh();
  const auto update = update_baseline(existing, "transpose", refresh_of({1100, 930, 1060}), classify);
  const std::string md = render_change_summary_markdown(update);
  EXPECT_NE(md.find("No baseline value changed."), std::string::npos) << md;
  EXPECT_NE(md.find("2 measured entries kept as they were"), std::string::npos) << md;
}

TEST(refresh_baseline_entry, the_change_summary_counts_values_from_history) {
  baseline_refresh_options options;
  options.earlier_values = [](const std::string&, const std::string&, const std::string& metric) {
    return metric == "conflicts" ? std::vector<double>{990, 1030, 5000} : std::vector<double>{};
  };
  const auto update = update_baseline(std::nullopt, "transpose", refresh_of({1000, 1010}), classify, options);
  EXPECT_EQ(conflicts_of(update.file).from_history, std::optional<int>(2));
  const std::string md = render_change_summary_markdown(update);
  EXPECT_NE(md.find("n=4 (2 from history)"), std::string::npos) << md;
  EXPECT_NE(md.find("pooled 2 recorded value(s) from the history; 1 fell outside"), std::string::npos) << md;
}

}  // namespace
}  // namespace counterguard
