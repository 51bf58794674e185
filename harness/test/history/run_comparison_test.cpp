// SPDX-License-Identifier: Apache-2.0
// compare_runs on the H200 recording and an edited copy of it.
#include "counterguard/history/run_comparison.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "comparison_fixture.hpp"
#include "counterguard/history/history_source.hpp"
#include "counterguard/history/history_store.hpp"

namespace counterguard::test {
namespace {

TEST(run_comparison, identical_runs_have_no_change) {
  const run_comparison c =
      compare_runs(side("a", recorded_h200_results()), side("b", recorded_h200_results()), earlier_values,
                   comparison_options{});
  EXPECT_GT(c.metrics.size(), 700U);
  EXPECT_EQ(c.count(change_finding::unchanged), c.metrics.size());
  EXPECT_EQ(c.flagged(), 0U);
  EXPECT_TRUE(c.cases_only_in_a.empty());
  EXPECT_TRUE(c.status_changes.empty());
}

TEST(run_comparison, any_change_of_an_exact_metric_is_flagged_in_the_total_and_the_kernel) {
  const run_comparison c = compare_fixture(true);
  for (const std::string kernel : {"total", "counterguard::kernels::transpose::smem_tile"}) {
    const metric_change* change = find_change(c, exact_case, kernel, "shared_store_bank_conflicts");
    ASSERT_NE(change, nullptr) << kernel;
    EXPECT_EQ(change->finding, change_finding::changed);
    EXPECT_TRUE(change->flagged());
    EXPECT_EQ(*change->a, 4063232);
    EXPECT_EQ(*change->b, 4063233);
    EXPECT_EQ(*change->delta, 1);
    EXPECT_DOUBLE_EQ(*change->relative, 1.0 / 4063232);
  }
}

TEST(run_comparison, a_noisy_change_inside_the_history_spread_is_within_noise) {
  const run_comparison c = compare_fixture(true);
  const metric_change* change = find_change(c, slight_case, "total", "shared_store_bank_conflicts_hw");
  ASSERT_NE(change, nullptr);
  EXPECT_EQ(change->cls, metric_class::noisy);
  EXPECT_EQ(change->finding, change_finding::within_noise);
  EXPECT_FALSE(change->flagged());
  EXPECT_EQ(change->noise_samples, 6U);
  EXPECT_DOUBLE_EQ(*change->noise_sigma, 1.4826 * 45);  // MAD of the six earlier values
  EXPECT_NEAR(*change->z, 31 / (1.4826 * 45 * std::sqrt(2.0)), 1e-9);
}

TEST(run_comparison, a_noisy_change_far_outside_the_history_spread_is_a_likely_change) {
  const run_comparison c = compare_fixture(true);
  const metric_change* change = find_change(c, great_case, "total", "shared_store_bank_conflicts_hw");
  ASSERT_NE(change, nullptr);
  EXPECT_EQ(change->finding, change_finding::likely_change);
  EXPECT_TRUE(change->flagged());
  EXPECT_GT(*change->z, 100);
}

TEST(run_comparison, without_enough_history_a_noisy_change_has_no_noise_estimate) {
  const run_comparison without = compare_fixture(false);
  const metric_change* change = find_change(without, great_case, "total", "shared_store_bank_conflicts_hw");
  ASSERT_NE(change, nullptr);
  EXPECT_EQ(change->finding, change_finding::no_noise_estimate);
  EXPECT_FALSE(change->flagged());
  EXPECT_FALSE(without.history_consulted);

  run_results b = edited_h200_results();
  set_metric(b, exact_case, "shared_store_bank_conflicts_hw",
             4083000);  // earlier_values has two values of it
  const run_comparison short_history =
      compare_runs(side("a", recorded_h200_results()), side("b", b), earlier_values, comparison_options{});
  const metric_change* hw = find_change(short_history, exact_case, "total", "shared_store_bank_conflicts_hw");
  ASSERT_NE(hw, nullptr);
  EXPECT_EQ(hw->finding, change_finding::no_noise_estimate);
  EXPECT_EQ(hw->noise_samples, 2U);
  EXPECT_FALSE(hw->z.has_value());
}

TEST(run_comparison, cases_and_metrics_on_one_side_only_are_listed) {
  const run_comparison c = compare_fixture(true);
  EXPECT_EQ(c.cases_only_in_a, std::vector<std::string>{dropped_case});
  EXPECT_TRUE(c.cases_only_in_b.empty());
  const metric_change* gone = find_change(c, thinned_case, "total", "global_atomic_requests");
  ASSERT_NE(gone, nullptr);
  EXPECT_EQ(gone->finding, change_finding::only_in_a);
  EXPECT_EQ(*gone->a, 0);
  EXPECT_FALSE(gone->b.has_value());
  ASSERT_EQ(c.status_changes.size(), 1U);
  EXPECT_EQ(c.status_changes[0].instance, failing_case);
  EXPECT_EQ(c.status_changes[0].b, case_status::failed);

  const run_comparison reversed = compare_runs(side("b", edited_h200_results()),
                                               side("a", recorded_h200_results()), {}, comparison_options{});
  EXPECT_EQ(reversed.cases_only_in_b, std::vector<std::string>{dropped_case});
  EXPECT_EQ(find_change(reversed, thinned_case, "total", "global_atomic_requests")->finding,
            change_finding::only_in_b);
}

TEST(run_comparison, counts_add_up_to_every_compared_metric) {
  const run_comparison c = compare_fixture(true);
  EXPECT_EQ(c.count(change_finding::changed), 2U);
  EXPECT_EQ(c.count(change_finding::likely_change), 2U);
  EXPECT_EQ(c.count(change_finding::within_noise), 2U);
  EXPECT_EQ(c.count(change_finding::only_in_a), 2U);  // the total and the launch
  EXPECT_EQ(c.flagged(), 4U);
  std::size_t sum = 0;
  for (auto f : {change_finding::unchanged, change_finding::changed, change_finding::within_noise,
                 change_finding::likely_change, change_finding::no_noise_estimate, change_finding::only_in_a,
                 change_finding::only_in_b})
    sum += c.count(f);
  EXPECT_EQ(sum, c.metrics.size());
}

TEST(run_comparison, the_noise_of_a_recorded_history_judges_a_noisy_change) {
  scratch_directory dir;
  history_store store(dir.file("history.db"));
  // Five earlier runs in which the padded transpose's hardware counter moved by a few dozen counts.
  const double earlier[] = {5669, 5690, 5641, 5702, 5655};
  for (int i = 0; i < 5; ++i) {
    run_results run = recorded_h200_results();
    run.metadata.started_at = "2026-11-2" + std::to_string(i) + "T00:00:00Z";
    set_metric(run, slight_case, "shared_store_bank_conflicts_hw", earlier[i]);
    set_metric(run, great_case, "shared_store_bank_conflicts_hw", 5203 + 10 * i);
    store.record(run, {"run", results_content_hash(run)});
  }
  const run_results b = edited_h200_results();
  value_window window;
  window.started_before = b.metadata.started_at;
  const noise_history history = [&](const std::string& instance, const std::string& kernel,
                                    const std::string& metric) {
    return store.recent_values(b.metadata.gpu_key, instance, kernel, metric, window);
  };
  const run_comparison c =
      compare_runs(side("a", recorded_h200_results()), side("b", b), history, comparison_options{});
  EXPECT_EQ(find_change(c, slight_case, "total", "shared_store_bank_conflicts_hw")->finding,
            change_finding::within_noise);
  const metric_change* great = find_change(c, great_case, "total", "shared_store_bank_conflicts_hw");
  EXPECT_EQ(great->finding, change_finding::likely_change);
  EXPECT_EQ(great->noise_samples, 5U);
}

}  // namespace
}  // namespace counterguard::test
