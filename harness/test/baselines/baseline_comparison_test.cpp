// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_comparison.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "baseline_test_support.hpp"
#include "counterguard/baselines/sample_statistics.hpp"
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

// A noisy entry as `baseline update` writes it (schema version 2) from these samples.
baseline_entry refreshed(const std::vector<double>& samples,
                         metric_direction direction = metric_direction::lower_is_better) {
  return make_baseline_entry(samples, metric_class::noisy, direction, noise_kind::counts);
}

TEST(baseline_comparison, a_noisy_band_is_the_noise_models_prediction_band_around_the_mean) {
  // mean 10000, sd 250, n = 5; model sd sqrt(3.5^2 * 10000 + 50^2) = 353.55; pooled scale^2 =
  // (8 * 353.55^2 + 4 * 250^2) / 12 = 104167; t_{1 - 6.7e-6, 12} = 7.049; half width = 7.049 * 322.75
  // * 1.0954.
  baseline_entry e = noisy(10000, 9700, 10300);
  e.mean = 10000;
  e.sd = 250;
  const baseline_band band = acceptance_band(e, {}, "m");
  EXPECT_NEAR(band.high - 10000, 7.049 * std::sqrt(104167.0) * std::sqrt(1.2), 2.0);
  EXPECT_DOUBLE_EQ(band.high - 10000, 10000 - band.low);
  EXPECT_EQ(compare(e, band.high).verdict, check_verdict::pass);
  EXPECT_EQ(compare(e, band.high + 1).verdict, check_verdict::regression);
  EXPECT_EQ(compare(e, band.low - 1).verdict, check_verdict::improvement);
  EXPECT_FALSE(compare(e, band.low - 1).failing);
}

TEST(baseline_comparison, the_flaky_gate_of_the_problem_report_no_longer_fails_and_a_doubling_still_does) {
  // `baseline update --repeat 3` read 1152, 1157, 1171 (version 1 band [1036.8, 1288.1]); a later run of the
  // unchanged kernel read 1316. Doubled conflicts (2314) must fail.
  const baseline_entry e = refreshed({1152, 1157, 1171});
  EXPECT_EQ(compare(e, 1316).verdict, check_verdict::pass);
  EXPECT_EQ(compare(e, 2314).verdict, check_verdict::regression);
}

TEST(baseline_comparison, identical_samples_of_a_noisy_count_give_a_band_of_the_models_width) {
  const baseline_entry e = refreshed({50, 50, 50, 50, 50});
  const baseline_band band = acceptance_band(e, {}, "m");
  // model sd 3.5 sqrt(50) = 24.75 with nu0 = 8 of the 12 degrees of freedom: 7.049 * 20.2 * 1.095 = 156.
  EXPECT_NEAR(band.high, 50 + 156, 1.5);
  EXPECT_EQ(compare(e, 200).verdict, check_verdict::pass);
  EXPECT_EQ(compare(e, 210).verdict, check_verdict::regression);
}

TEST(baseline_comparison, a_larger_false_alarm_rate_narrows_the_band_and_an_entrys_own_rate_wins) {
  baseline_entry e = refreshed({1000, 1010, 990, 1005, 995});
  baseline_comparison_options loose;
  loose.false_alarm_rate = 0.01;
  const double default_high = acceptance_band(e, {}, "m").high;
  const double loose_high = acceptance_band(e, loose, "m").high;
  EXPECT_LT(loose_high, default_high);
  e.false_alarm_rate = 0.01;
  EXPECT_DOUBLE_EQ(acceptance_band(e, {}, "m").high, loose_high);
}

TEST(baseline_comparison, the_noise_kind_comes_from_the_entry_else_from_the_metric_name) {
  baseline_entry e = noisy(60, 59.8, 60.2);
  e.mean = 60;
  e.sd = 0.2;
  // As a percentage the model is 0.5 points; as counts it would be 3.5 sqrt(60) = 27 counts.
  EXPECT_LT(acceptance_band(e, {}, "l2_hit_rate").high, 65);
  EXPECT_GT(acceptance_band(e, {}, "m").high, 100);
  e.noise = noise_kind::percent;
  EXPECT_LT(acceptance_band(e, {}, "m").high, 65);
}

TEST(baseline_comparison, direction_exact_alarms_on_both_sides_with_half_the_rate_each) {
  baseline_entry two_sided = refreshed({1000, 1010, 990, 1005, 995}, metric_direction::exact);
  baseline_entry one_sided = refreshed({1000, 1010, 990, 1005, 995});
  const baseline_band wide = acceptance_band(two_sided, {}, "m");
  EXPECT_GT(wide.high, acceptance_band(one_sided, {}, "m").high);
  EXPECT_EQ(compare(two_sided, wide.low - 1).verdict, check_verdict::regression);
  EXPECT_EQ(compare(two_sided, wide.high + 1).verdict, check_verdict::regression);
}

TEST(baseline_comparison, higher_is_better_noisy_metrics_alarm_only_below) {
  baseline_entry e = refreshed({60, 60.1, 59.9}, metric_direction::higher_is_better);
  e.noise = noise_kind::percent;
  EXPECT_EQ(compare(e, 50).verdict, check_verdict::regression);
  EXPECT_EQ(compare(e, 70).verdict, check_verdict::improvement);
  EXPECT_FALSE(compare(e, 70).failing);
}

TEST(baseline_comparison, a_tolerance_or_floor_a_human_wrote_widens_a_noisy_band) {
  baseline_entry e = refreshed({1000000, 1000000, 1000000, 1000000, 1000000});
  ASSERT_LT(acceptance_band(e, {}, "m").high, 1050000);  // the model alone: about 3.8%
  e.tolerance = 0.1;
  EXPECT_EQ(compare(e, 1099999).verdict, check_verdict::pass);
  EXPECT_EQ(compare(e, 1100001).verdict, check_verdict::regression);
  e.tolerance.reset();
  e.absolute_floor = 200000;
  EXPECT_EQ(compare(e, 1199999).verdict, check_verdict::pass);
  EXPECT_EQ(compare(e, 1200001).verdict, check_verdict::regression);
}

// Version 1 entries (no mean and sd): the committed baselines must keep working and never get stricter.
TEST(baseline_comparison, a_version_1_noisy_entry_is_never_judged_more_strictly_than_version_1_did) {
  // Version 1 band: [9800, 10400] widened by 10%: [8820, 11440].
  const baseline_entry e = noisy(10000, 9800, 10400);
  const baseline_band band = acceptance_band(e, {}, "m");
  EXPECT_LE(band.low, 8820);
  EXPECT_GE(band.high, 11440);
  EXPECT_EQ(compare(e, 11440).verdict, check_verdict::pass);
  EXPECT_EQ(compare(e, 8820).verdict, check_verdict::pass);
}

TEST(baseline_comparison, a_version_1_noisy_entry_gets_the_noise_models_band_when_that_is_wider) {
  // sd from the range: 600 / d2(5) = 600 / 2.326 = 258.0; model sd 353.6 at 10000; pooled
  // sqrt((8 * 353.6^2 + 4 * 258.0^2) / 12) = 324.8; half width 7.049 * 324.8 * 1.0954 = 2508, wider than the
  // version 1 widening (1040 above, 1180 below).
  const baseline_entry e = noisy(10000, 9800, 10400);
  const baseline_band band = acceptance_band(e, {}, "m");
  EXPECT_NEAR(band.high, 12508, 2);
  EXPECT_EQ(compare(e, 12500).verdict, check_verdict::pass);
  EXPECT_EQ(compare(e, 12520).verdict, check_verdict::regression);
  EXPECT_EQ(compare(e, 7480).verdict, check_verdict::improvement);
}

TEST(baseline_comparison, a_version_1_entrys_own_floor_and_tolerance_replace_the_version_1_defaults) {
  baseline_entry e = noisy(1000000, 1000000, 1000000);
  e.tolerance = 0.2;
  e.absolute_floor = 0;
  EXPECT_EQ(compare(e, 1200000).verdict, check_verdict::pass);
  EXPECT_EQ(compare(e, 1200001).verdict, check_verdict::regression);
}

TEST(baseline_comparison, noisy_small_counts_are_protected_by_the_poisson_floor) {
  // 10 counts from [8, 12]: the model (3.5 sqrt(10) = 11 counts) decides, not a percentage.
  baseline_entry e = refreshed({8, 10, 12, 9, 11});
  EXPECT_EQ(compare(e, 60).verdict, check_verdict::pass);
  EXPECT_EQ(compare(e, 100).verdict, check_verdict::regression);
}

TEST(baseline_comparison, a_zero_baseline_must_stay_zero_even_when_noisy) {
  EXPECT_EQ(compare(noisy(0, 0, 0), 0).verdict, check_verdict::pass);
  EXPECT_EQ(compare(noisy(0, 0, 0), 1).verdict, check_verdict::regression);
  EXPECT_EQ(compare(entry(0), 1).verdict, check_verdict::regression);
}

TEST(baseline_comparison, a_noisy_count_refreshed_from_all_zero_samples_must_stay_zero) {
  const baseline_entry zeros = refreshed({0, 0, 0, 0, 0});
  EXPECT_EQ(compare(zeros, 0).verdict, check_verdict::pass);
  EXPECT_EQ(compare(zeros, 1).verdict, check_verdict::regression);
}

TEST(baseline_comparison, a_noisy_count_whose_samples_were_not_all_zero_gets_a_band) {
  const baseline_entry e = refreshed({0, 0, 3});
  EXPECT_EQ(compare(e, 5).verdict, check_verdict::pass);
  EXPECT_EQ(compare(e, 100).verdict, check_verdict::regression);
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

TEST(baseline_comparison, each_verdict_has_its_own_sentence) {
  EXPECT_EQ(compare(entry(100), 100).message, "suite/case: m: measured 100, baseline 100 (exact)");
  EXPECT_EQ(compare(entry(100), 80).message,
            "suite/case: m: improvement: measured 80 (-20, -20%), baseline 100 (exact); record it with "
            "'counterguard baseline update'");
  EXPECT_EQ(compare(entry(100), std::nan("")).message,
            "suite/case: m: measured no value (NaN); baseline 100");
  EXPECT_EQ(compare(entry(0), 2).message,
            "suite/case: m: regression: measured 2 (+2), baseline 0 (must stay 0)");
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

TEST(compare_case_with_baseline, new_and_missing_metrics_say_what_to_do_about_them) {
  baseline_case baseline;
  baseline["total"]["gone"] = entry(3);
  baseline["step"]["gone"] = entry(4);
  baseline["absent"]["gone"] = entry(5);
  std::map<std::string, std::string> messages;
  for (const auto& outcome : compare_case_with_baseline(measured_case(), &baseline, {}))
    messages[outcome.kernel + "/" + outcome.metric] = outcome.message;
  EXPECT_EQ(messages["/fresh"],
            "t/a: fresh: measured 7, no baseline yet; record it with 'counterguard baseline update'");
  EXPECT_EQ(
      messages["/gone"],
      "t/a: gone: has a baseline (3) but was not measured; drop it with 'counterguard baseline update'");
  EXPECT_EQ(messages["step/gone"],
            "t/a: gone [kernel step]: has a baseline (4) but was not measured; drop it "
            "with 'counterguard baseline update'");
  EXPECT_EQ(
      messages["absent/gone"],
      "t/a: gone [kernel absent]: has a baseline (5) but was not measured (the kernel was not profiled); "
      "drop it with 'counterguard baseline update'");
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

TEST(apply_baseline_directory, compares_each_suite_with_its_file_for_the_results_gpu_key) {
  const std::string directory = test::make_temporary_directory();
  baseline_file file = test::sample_file();
  file.suite = "t";
  file.cases["t/a"]["total"]["conflicts"] = entry(0);
  save_baseline_file(baseline_path(directory, "GH100-132sm-cuda13", "t"), file);
  run_results results;
  results.metadata.gpu_key = "GH100-132sm-cuda13";
  results.cases.push_back(measured_case());
  case_result other = measured_case();
  other.instance = "u/a";
  other.suite = "u";  // no file: every metric is new
  results.cases.push_back(other);
  apply_baseline_directory(results, directory, {});
  EXPECT_EQ(results.cases[0].checks.size(), 4U);
  ASSERT_FALSE(results.cases[1].checks.empty());
  for (const auto& check : results.cases[1].checks)
    EXPECT_EQ(check.verdict, check_verdict::new_metric) << check.metric;
}

}  // namespace
}  // namespace counterguard
