// SPDX-License-Identifier: Apache-2.0
// baseline update --from-history against a real SQLite history: the earlier values a refresh pools into noisy
// bands, what they do to the band, and that the refresh's own repetitions never count twice.
#include "counterguard/history/recorded_baseline_values.hpp"

#include <gtest/gtest.h>

#include <memory>

#include "counterguard/baselines/baseline_comparison.hpp"
#include "counterguard/baselines/baseline_update.hpp"
#include "counterguard/history/history_source.hpp"
#include "history_test_support.hpp"

namespace counterguard::test {
namespace {

const std::string gpu_key = "GH100-132sm-cuda13";
const std::string instance = "transpose/smem?pad=0,n=2048";
const std::string conflicts = "conflicts";  // noisy counts in these tests
const std::string sectors = "sectors";      // exact

metric_traits classify(const std::string& metric) {
  metric_traits traits;
  if (metric == conflicts)
    traits.cls = metric_class::noisy;
  return traits;
}

// One run of the suite: the case measured `noisy` conflicts and 4096 sectors, started on `day`.
run_results run_of(double noisy, int day, const std::string& key = gpu_key) {
  run_results run;
  run.metadata.gpu_key = key;
  run.metadata.device.name = "NVIDIA H200";
  run.metadata.git_commit = std::string(40, 'a');
  run.metadata.started_at =
      "2026-01-" + std::string(day < 10 ? "0" : "") + std::to_string(day) + "T00:00:00Z";
  case_result result;
  result.instance = instance;
  result.suite = "transpose";
  result.verified = true;
  result.totals[conflicts] = {noisy, metric_class::noisy};
  result.totals[sectors] = {4096, metric_class::exact};
  run.cases.push_back(result);
  return run;
}

std::vector<run_results> refresh_of(const std::vector<double>& values, int day) {
  std::vector<run_results> repetitions;
  for (const double value : values)
    repetitions.push_back(run_of(value, day));
  return repetitions;
}

// Records one run per value, a day apart from `first_day` on.
void record_runs(history_store& store, const std::vector<double>& values, int first_day) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const run_results run = run_of(values[i], first_day + static_cast<int>(i));
    (void)store.record(run, {"test", results_content_hash(run)});
  }
}

baseline_refresh_options from_history(const std::shared_ptr<history_store>& store, std::size_t last_n,
                                      const std::vector<std::string>& own = {}) {
  baseline_refresh_options options;
  options.earlier_values = recorded_baseline_values(store, gpu_key, last_n, own);
  return options;
}

const baseline_entry& conflicts_entry(const baseline_update_result& update) {
  return update.file.cases.at(instance).at("total").at(conflicts);
}

double band_width(const baseline_entry& entry) {
  const baseline_band band = acceptance_band(entry, baseline_comparison_options{}, conflicts);
  return band.high - band.low;
}

TEST(recorded_baseline_values, are_the_last_n_values_of_the_gpu_key_instance_kernel_and_metric) {
  scratch_directory dir;
  auto store = std::make_shared<history_store>(dir.file("history.db"));
  record_runs(*store, {1001, 1002, 1003, 1004, 1005}, 1);
  const run_results elsewhere = run_of(5000, 9, "AD102-142sm-cuda13");
  (void)store->record(elsewhere, {"test", results_content_hash(elsewhere)});

  const earlier_values_source values = recorded_baseline_values(store, gpu_key, 3, {});
  EXPECT_EQ(values(instance, "total", conflicts), (std::vector<double>{1003, 1004, 1005}));
  EXPECT_EQ(values(instance, "total", sectors), (std::vector<double>{4096, 4096, 4096}));
  EXPECT_TRUE(values("transpose/other", "total", conflicts).empty());
}

TEST(recorded_baseline_values, leave_out_the_refreshs_own_repetitions_already_in_the_history) {
  scratch_directory dir;
  auto store = std::make_shared<history_store>(dir.file("history.db"));
  record_runs(*store, {990, 1010, 1000}, 1);
  // The refresh's repetitions are in the store already, recorded as `baseline update --history` records them.
  const std::vector<run_results> refresh = refresh_of({1020, 1030, 1040}, 10);
  std::vector<std::string> own;
  for (std::size_t r = 0; r < refresh.size(); ++r) {
    own.push_back(results_content_hash(refresh[r], "repetition " + std::to_string(r + 1) + "/3"));
    (void)store->record(refresh[r], {"refresh", own.back()});
  }

  const auto update =
      update_baseline(std::nullopt, "transpose", refresh, classify, from_history(store, 20, own));
  const baseline_entry& e = conflicts_entry(update);
  EXPECT_EQ(e.n, 6);  // 3 repetitions + 3 earlier runs, not + 6
  EXPECT_EQ(e.from_history, std::optional<int>(3));
  EXPECT_EQ(e.min, 990);
  EXPECT_EQ(e.max, 1040);
  EXPECT_DOUBLE_EQ(*e.mean, (990 + 1010 + 1000 + 1020 + 1030 + 1040) / 6.0);
  // Without the refresh's hashes its repetitions would have been counted twice.
  const auto doubled = update_baseline(std::nullopt, "transpose", refresh, classify, from_history(store, 20));
  EXPECT_EQ(conflicts_entry(doubled).n, 9);
}

TEST(recorded_baseline_values, widely_spread_history_widens_the_band) {
  scratch_directory dir;
  auto store = std::make_shared<history_store>(dir.file("history.db"));
  record_runs(*store, {600, 1400, 700, 1300, 650, 1350}, 1);
  const std::vector<run_results> refresh = refresh_of({1000, 1001, 1002}, 10);

  const auto alone = update_baseline(std::nullopt, "transpose", refresh, classify);
  const auto pooled = update_baseline(std::nullopt, "transpose", refresh, classify, from_history(store, 20));
  EXPECT_EQ(conflicts_entry(pooled).from_history, std::optional<int>(6));
  EXPECT_EQ(conflicts_entry(pooled).n, 9);
  EXPECT_GT(*conflicts_entry(pooled).sd, 250.0);
  EXPECT_GT(band_width(conflicts_entry(pooled)), 1.3 * band_width(conflicts_entry(alone)));
  EXPECT_EQ(pooled.earlier_used, 6U);
}

TEST(recorded_baseline_values, many_steady_history_values_narrow_the_band) {
  scratch_directory dir;
  auto store = std::make_shared<history_store>(dir.file("history.db"));
  std::vector<double> steady;
  for (int i = 0; i < 20; ++i)
    steady.push_back(1000 + (i % 5) * 10 - 20);  // 980 .. 1020, sd about 14
  record_runs(*store, steady, 1);
  const std::vector<run_results> refresh = refresh_of({990, 1000, 1010}, 25);

  const auto alone = update_baseline(std::nullopt, "transpose", refresh, classify);
  const auto pooled = update_baseline(std::nullopt, "transpose", refresh, classify, from_history(store, 20));
  EXPECT_EQ(conflicts_entry(pooled).n, 23);
  EXPECT_LT(band_width(conflicts_entry(pooled)), 0.5 * band_width(conflicts_entry(alone)));
  // --from-history N takes the last N only.
  const auto last_five =
      update_baseline(std::nullopt, "transpose", refresh, classify, from_history(store, 5));
  EXPECT_EQ(conflicts_entry(last_five).from_history, std::optional<int>(5));
}

TEST(recorded_baseline_values, values_from_before_a_change_are_left_out) {
  scratch_directory dir;
  auto store = std::make_shared<history_store>(dir.file("history.db"));
  record_runs(*store, {990, 1000, 1010, 1005, 995}, 1);
  baseline_file existing;
  existing.gpu_key = gpu_key;
  existing.suite = "transpose";
  // The entries the earlier runs gave.
  existing.cases[instance] =
      update_baseline(std::nullopt, "transpose", refresh_of({990, 1000, 1010}, 1), classify)
          .file.cases.at(instance);
  // The kernel changed: three times the conflicts.
  const auto update = update_baseline(existing, "transpose", refresh_of({3000, 3010, 3020}, 10), classify,
                                      from_history(store, 20));
  const baseline_entry& e = conflicts_entry(update);
  EXPECT_EQ(e.value, 3010);
  EXPECT_EQ(e.n, 3);
  EXPECT_FALSE(e.from_history.has_value());
  EXPECT_EQ(update.earlier_left_out, 5U);
  ASSERT_EQ(update.changes.size(), 1U);  // the conflicts; the sectors did not change and were kept
  EXPECT_EQ(update.changes[0].metric, conflicts);
  EXPECT_EQ(update.kept, 1U);
}

TEST(recorded_baseline_values, exact_metrics_take_no_history) {
  scratch_directory dir;
  auto store = std::make_shared<history_store>(dir.file("history.db"));
  record_runs(*store, {1000, 1000, 1000}, 1);
  const auto update = update_baseline(std::nullopt, "transpose", refresh_of({1000, 1000}, 10), classify,
                                      from_history(store, 20));
  const baseline_entry& exact = update.file.cases.at(instance).at("total").at(sectors);
  EXPECT_EQ(exact.n, 2);
  EXPECT_FALSE(exact.from_history.has_value());
  EXPECT_EQ(conflicts_entry(update).from_history, std::optional<int>(3));
}

TEST(recorded_baseline_values, the_count_from_history_is_written_and_read_back) {
  scratch_directory dir;
  auto store = std::make_shared<history_store>(dir.file("history.db"));
  record_runs(*store, {995, 1005}, 1);
  const auto update = update_baseline(std::nullopt, "transpose", refresh_of({1000, 1001, 1002}, 10), classify,
                                      from_history(store, 20));
  const std::string path = dir.file("transpose.yaml");
  save_baseline_file(path, update.file);
  const std::optional<baseline_file> loaded = load_baseline_file(path);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->cases.at(instance).at("total").at(conflicts).from_history, std::optional<int>(2));
  EXPECT_EQ(render_baseline_yaml(*loaded), render_baseline_yaml(update.file));
}

}  // namespace
}  // namespace counterguard::test
