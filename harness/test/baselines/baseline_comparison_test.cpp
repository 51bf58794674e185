#include "counterguard/baselines/baseline_comparison.hpp"

#include <gtest/gtest.h>

#include "baseline_test_support.hpp"
#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

using test::entry;
using test::noisy;

check_outcome compare(const baseline_entry& e, double measured, bool strict = false) {
  baseline_comparison_options options;
  options.strict = strict;
  return compare_with_baseline("suite/case", "total", "m", e, measured, options);
}

TEST(baseline_comparison, exact_metric_equal_to_its_baseline_passes) {
  EXPECT_EQ(compare(entry(4194304), 4194304).verdict, check_verdict::pass);
}

TEST(baseline_comparison, exact_metric_one_count_higher_is_a_regression) {
  const auto outcome = compare(entry(4194304), 4194305);
  EXPECT_EQ(outcome.verdict, check_verdict::regression);
  EXPECT_TRUE(outcome.failing);
}

TEST(baseline_comparison, exact_metric_lower_is_an_improvement_that_does_not_fail) {
  const auto outcome = compare(entry(4194304), 1048576);
  EXPECT_EQ(outcome.verdict, check_verdict::improvement);
  EXPECT_FALSE(outcome.failing);
  EXPECT_NE(outcome.message.find("counterguard baseline update"), std::string::npos);
}

TEST(baseline_comparison, an_improvement_fails_when_strict) {
  EXPECT_TRUE(compare(entry(100), 50, true).failing);
}

TEST(baseline_comparison, exact_metric_with_tolerance_accepts_changes_within_it) {
  baseline_entry e = entry(1000);
  e.tolerance = 0.02;
  EXPECT_EQ(compare(e, 1020).verdict, check_verdict::pass);
  EXPECT_EQ(compare(e, 1021).verdict, check_verdict::regression);
}

TEST(baseline_comparison, static_metric_compares_exactly) {
  EXPECT_EQ(compare(entry(40, metric_class::static_resource), 41).verdict, check_verdict::regression);
}

TEST(baseline_comparison, higher_is_better_mirrors_the_verdicts) {
  const baseline_entry e = entry(50, metric_class::exact, metric_direction::higher_is_better);
  EXPECT_EQ(compare(e, 40).verdict, check_verdict::regression);
  EXPECT_EQ(compare(e, 60).verdict, check_verdict::improvement);
}

TEST(baseline_comparison, exact_direction_makes_any_change_a_regression) {
  const baseline_entry e = entry(32, metric_class::exact, metric_direction::exact);
  EXPECT_EQ(compare(e, 31).verdict, check_verdict::regression);
  EXPECT_EQ(compare(e, 33).verdict, check_verdict::regression);
}

TEST(baseline_comparison, noisy_metric_within_its_widened_band_passes) {
  // band [9800, 10400] widened by 10%: [8820, 11440]
  EXPECT_EQ(compare(noisy(10000, 9800, 10400), 11440).verdict, check_verdict::pass);
  EXPECT_EQ(compare(noisy(10000, 9800, 10400), 8820).verdict, check_verdict::pass);
}

TEST(baseline_comparison, noisy_metric_beyond_the_relative_widening_is_a_regression) {
  EXPECT_EQ(compare(noisy(10000, 9800, 10400), 11441).verdict, check_verdict::regression);
}

TEST(baseline_comparison, noisy_metric_below_the_band_is_an_improvement) {
  EXPECT_EQ(compare(noisy(10000, 9800, 10400), 8819).verdict, check_verdict::improvement);
}

TEST(baseline_comparison, noisy_small_counts_are_protected_by_the_absolute_floor) {
  // 10% of 10 is 1 count; the floor of 32 counts decides.
  EXPECT_EQ(compare(noisy(10, 8, 12), 44).verdict, check_verdict::pass);
  EXPECT_EQ(compare(noisy(10, 8, 12), 45).verdict, check_verdict::regression);
}

TEST(baseline_comparison, a_per_entry_floor_and_tolerance_replace_the_defaults) {
  baseline_entry e = noisy(50, 50, 50);
  e.absolute_floor = 0;
  e.tolerance = 0.1;
  EXPECT_EQ(compare(e, 55).verdict, check_verdict::pass);
  EXPECT_EQ(compare(e, 56).verdict, check_verdict::regression);
}

TEST(baseline_comparison, a_zero_baseline_must_stay_zero_even_when_noisy) {
  EXPECT_EQ(compare(noisy(0, 0, 0), 0).verdict, check_verdict::pass);
  EXPECT_EQ(compare(noisy(0, 0, 0), 1).verdict, check_verdict::regression);
  EXPECT_EQ(compare(entry(0), 1).verdict, check_verdict::regression);
}

TEST(baseline_comparison, a_zero_baseline_that_rises_is_an_improvement_when_higher_is_better) {
  EXPECT_EQ(compare(entry(0, metric_class::noisy, metric_direction::higher_is_better), 3).verdict,
            check_verdict::improvement);
}

TEST(baseline_comparison, floating_ratios_compare_equal_despite_rounding) {
  EXPECT_EQ(compare(entry(4.0), 4.0 * (1 + 1e-13)).verdict, check_verdict::pass);
}

TEST(baseline_comparison, the_message_names_case_metric_baseline_and_measured) {
  const auto outcome =
      compare_with_baseline("t/naive", "vec_add", "global_load_sectors", entry(100), 150, {});
  EXPECT_EQ(outcome.message,
            "t/naive: global_load_sectors [kernel vec_add]: regression: measured 150 (+50, +50%), baseline "
            "100 (exact)");
  EXPECT_EQ(outcome.kernel, "vec_add");
  EXPECT_EQ(outcome.baseline, std::optional<double>(100));
}

case_result measured_case() {
  case_result result;
  result.instance = "t/a";
  result.suite = "t";
  result.totals["conflicts"] = {0, metric_class::exact};
  result.totals["fresh"] = {7, metric_class::exact};
  kernel_measurement first;
  first.function = "step";
  first.launch_index = 0;
  first.metrics["sectors"] = 10;
  kernel_measurement second = first;
  second.launch_index = 1;
  second.metrics["sectors"] = 20;
  result.kernels = {second, first};  // out of order on purpose
  return result;
}

TEST(compare_case_with_baseline, repeated_launches_are_keyed_by_occurrence) {
  baseline_case baseline;
  baseline["step"]["sectors"] = entry(10);
  baseline["step#1"]["sectors"] = entry(20);
  baseline["total"]["conflicts"] = entry(0);
  baseline["total"]["fresh"] = entry(7);
  for (const auto& outcome : compare_case_with_baseline(measured_case(), &baseline, {})) {
    EXPECT_EQ(outcome.verdict, check_verdict::pass) << outcome.message;
  }
}

TEST(compare_case_with_baseline, a_metric_without_baseline_is_new_and_not_failing) {
  baseline_case baseline;
  baseline["total"]["conflicts"] = entry(0);
  bool saw_new = false;
  for (const auto& outcome : compare_case_with_baseline(measured_case(), &baseline, {})) {
    if (outcome.metric != "fresh")
      continue;
    saw_new = true;
    EXPECT_EQ(outcome.verdict, check_verdict::new_metric);
    EXPECT_FALSE(outcome.failing);
  }
  EXPECT_TRUE(saw_new);
}

TEST(compare_case_with_baseline, a_case_without_baseline_makes_every_metric_new) {
  const auto outcomes = compare_case_with_baseline(measured_case(), nullptr, {});
  EXPECT_EQ(outcomes.size(), 4U);
  for (const auto& outcome : outcomes)
    EXPECT_EQ(outcome.verdict, check_verdict::new_metric);
}

TEST(compare_case_with_baseline,
     a_baselined_metric_no_longer_measured_is_missing_and_fails_only_when_strict) {
  baseline_case baseline;
  baseline["total"]["gone"] = entry(3);
  baseline_comparison_options strict;
  strict.strict = true;
  for (const bool is_strict : {false, true}) {
    baseline_comparison_options options;
    options.strict = is_strict;
    bool saw = false;
    for (const auto& outcome : compare_case_with_baseline(measured_case(), &baseline, options)) {
      if (outcome.metric != "gone")
        continue;
      saw = true;
      EXPECT_EQ(outcome.verdict, check_verdict::missing);
      EXPECT_EQ(outcome.failing, is_strict);
    }
    EXPECT_TRUE(saw);
  }
}

TEST(require_same_gpu_key, refuses_a_foreign_baseline_naming_both_keys_and_the_file) {
  baseline_file file = test::sample_file();
  try {
    require_same_gpu_key(file, "baselines/GH100-132sm-cuda13/transpose.yaml", "AD102-128sm-cuda13");
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_EQ(e.code(), exit_code::invalid_input);
    const std::string message = e.what();
    EXPECT_NE(message.find("GH100-132sm-cuda13"), std::string::npos);
    EXPECT_NE(message.find("AD102-128sm-cuda13"), std::string::npos);
    EXPECT_NE(message.find("baselines/GH100-132sm-cuda13/transpose.yaml"), std::string::npos);
  }
}

TEST(apply_baselines, refuses_before_comparing_anything_when_keys_differ) {
  run_results results;
  results.metadata.gpu_key = "AD102-128sm-cuda13";
  results.cases.push_back(measured_case());
  EXPECT_THROW(apply_baselines(results, {{"transpose", test::sample_file()}}, {}, {}), input_error);
  EXPECT_TRUE(results.cases[0].checks.empty());
}

TEST(apply_baselines, appends_baseline_checks_and_leaves_skipped_cases_alone) {
  run_results results;
  results.metadata.gpu_key = "GH100-132sm-cuda13";
  results.cases.push_back(measured_case());
  case_result skipped = measured_case();
  skipped.status = case_status::skipped;
  results.cases.push_back(skipped);
  baseline_file file = test::sample_file();
  file.suite = "t";
  file.cases["t/a"]["total"]["conflicts"] = entry(0);
  apply_baselines(results, {{"t", file}}, {}, {});
  EXPECT_EQ(results.cases[0].checks.size(), 4U);
  EXPECT_TRUE(results.cases[1].checks.empty());
}

}  // namespace
}  // namespace counterguard
