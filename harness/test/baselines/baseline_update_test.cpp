// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_update.hpp"

#include <gtest/gtest.h>

#include "baseline_test_support.hpp"
#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

metric_traits classify(const std::string& metric) {
  metric_traits traits;
  if (metric == "duration_ns")
    traits.cls = metric_class::noisy;
  if (metric == "occupancy") {
    traits.cls = metric_class::noisy;
    traits.direction = metric_direction::higher_is_better;
    traits.absolute_floor = 0.0;
  }
  return traits;
}

run_results run_with(const std::string& instance, std::map<std::string, double> totals) {
  run_results run;
  run.metadata.gpu_key = "GH100-132sm-cuda13";
  run.metadata.device.name = "NVIDIA H200";
  run.metadata.started_at = "2025-02-01T00:00:00Z";
  case_result result;
  result.instance = instance;
  result.suite = "transpose";
  result.verified = true;
  for (const auto& [metric, value] : totals)
    result.totals[metric] = {value, classify(metric).cls};
  run.cases.push_back(result);
  return run;
}

TEST(update_baseline, value_is_the_median_and_spread_is_min_max_n) {
  const auto update =
      update_baseline(std::nullopt, "transpose",
                      {run_with("t/a", {{"duration_ns", 120}}), run_with("t/a", {{"duration_ns", 100}}),
                       run_with("t/a", {{"duration_ns", 110}})},
                      classify);
  const baseline_entry& e = update.file.cases.at("t/a").at("total").at("duration_ns");
  EXPECT_EQ(e.value, 110);
  EXPECT_EQ(e.min, 100);
  EXPECT_EQ(e.max, 120);
  EXPECT_EQ(e.n, 3);
  EXPECT_EQ(e.cls, metric_class::noisy);
}

TEST(update_baseline, median_of_an_even_count_is_the_mean_of_the_middle_two) {
  const auto update = update_baseline(
      std::nullopt, "transpose",
      {run_with("t/a", {{"duration_ns", 100}}), run_with("t/a", {{"duration_ns", 110}})}, classify);
  EXPECT_EQ(update.file.cases.at("t/a").at("total").at("duration_ns").value, 105);
}

TEST(update_baseline, class_and_direction_come_from_the_classifier) {
  const auto update =
      update_baseline(std::nullopt, "transpose", {run_with("t/a", {{"occupancy", 50}})}, classify);
  const baseline_entry& e = update.file.cases.at("t/a").at("total").at("occupancy");
  EXPECT_EQ(e.direction, metric_direction::higher_is_better);
  EXPECT_EQ(e.absolute_floor, std::optional<double>(0.0));
}

TEST(update_baseline, the_class_a_case_reports_belongs_to_that_case_alone) {
  run_results run = run_with("t/exact_here", {{"atomics", 5}});
  run_results contended = run_with("t/noisy_here", {{"atomics", 9}});
  contended.cases[0].totals["atomics"].cls = metric_class::noisy;  // the case declared it noisy
  run.cases.push_back(contended.cases[0]);
  const auto update = update_baseline(std::nullopt, "transpose", {run}, classify);
  EXPECT_EQ(update.file.cases.at("t/exact_here").at("total").at("atomics").cls, metric_class::exact);
  EXPECT_EQ(update.file.cases.at("t/noisy_here").at("total").at("atomics").cls, metric_class::noisy);
}

TEST(update_baseline, touches_only_the_cases_measured) {
  baseline_file existing = test::sample_file();
  const std::string before = render_baseline_yaml(existing);
  const auto update =
      update_baseline(existing, "transpose", {run_with("t/new", {{"global_store_sectors", 8}})}, classify);
  EXPECT_EQ(update.file.cases.at("transpose/naive?n=2048"), existing.cases.at("transpose/naive?n=2048"));
  EXPECT_EQ(update.file.cases.at("transpose/smem?pad=1,n=2048"),
            existing.cases.at("transpose/smem?pad=1,n=2048"));
  // The untouched cases read the same in the written file.
  const std::string after = render_baseline_yaml(update.file);
  // The lines of a case's block: its key line and the more deeply indented lines after it.
  const auto block = [](const std::string& text, const std::string& instance) {
    std::string lines;
    auto line = text.find("\n  " + instance + ":");
    while (line != std::string::npos && line + 1 < text.size()) {
      const auto next = text.find('\n', line + 1);
      lines += text.substr(line + 1, next - line);
      if (next == std::string::npos || text.compare(next + 1, 4, "    ") != 0)
        break;
      line = next;
    }
    return lines;
  };
  EXPECT_EQ(block(before, "transpose/naive?n=2048"), block(after, "transpose/naive?n=2048"));
  EXPECT_FALSE(block(after, "transpose/naive?n=2048").empty());
}

TEST(update_baseline, keeps_tolerances_a_human_set) {
  baseline_file existing = test::sample_file();
  existing.cases["t/a"]["total"]["duration_ns"] = test::noisy(100, 90, 110);
  existing.cases["t/a"]["total"]["duration_ns"].tolerance = 0.2;
  existing.cases["t/a"]["total"]["duration_ns"].absolute_floor = 500;
  const auto update =
      update_baseline(existing, "transpose", {run_with("t/a", {{"duration_ns", 130}})}, classify);
  const baseline_entry& e = update.file.cases.at("t/a").at("total").at("duration_ns");
  EXPECT_EQ(e.value, 130);
  EXPECT_EQ(e.tolerance, std::optional<double>(0.2));
  EXPECT_EQ(e.absolute_floor, std::optional<double>(500));
}

TEST(update_baseline, noisy_entries_carry_mean_sd_and_noise_kind_as_schema_version_2) {
  baseline_file existing = test::sample_file();
  existing.schema_version = 1;
  const auto update = update_baseline(existing, "transpose",
                                      {run_with("t/a", {{"duration_ns", 120}, {"global_store_sectors", 8}}),
                                       run_with("t/a", {{"duration_ns", 100}, {"global_store_sectors", 8}}),
                                       run_with("t/a", {{"duration_ns", 110}, {"global_store_sectors", 8}})},
                                      classify);
  EXPECT_EQ(update.file.schema_version, 2);
  const baseline_entry& noisy = update.file.cases.at("t/a").at("total").at("duration_ns");
  EXPECT_EQ(noisy.mean, std::optional<double>(110));
  EXPECT_EQ(noisy.sd, std::optional<double>(10));
  EXPECT_EQ(noisy.noise, std::optional<noise_kind>(noise_kind::counts));  // the test classifier's default
  const baseline_entry& exact = update.file.cases.at("t/a").at("total").at("global_store_sectors");
  EXPECT_FALSE(exact.mean || exact.sd || exact.noise);
}

TEST(update_baseline, keeps_a_noise_kind_and_false_alarm_rate_a_human_set) {
  baseline_file existing = test::sample_file();
  existing.cases["t/a"]["total"]["duration_ns"] = test::noisy(100, 90, 110);
  existing.cases["t/a"]["total"]["duration_ns"].noise = noise_kind::duration;
  existing.cases["t/a"]["total"]["duration_ns"].false_alarm_rate = 1e-4;
  const auto update =
      update_baseline(existing, "transpose", {run_with("t/a", {{"duration_ns", 130}})}, classify);
  const baseline_entry& e = update.file.cases.at("t/a").at("total").at("duration_ns");
  EXPECT_EQ(e.noise, std::optional<noise_kind>(noise_kind::duration));
  EXPECT_EQ(e.false_alarm_rate, std::optional<double>(1e-4));
  EXPECT_EQ(e.sd, std::optional<double>(0));
}

TEST(update_baseline, lists_changed_added_and_removed_entries) {
  baseline_file existing = test::sample_file();
  existing.cases["t/a"]["total"]["global_store_sectors"] = test::entry(8);
  existing.cases["t/a"]["total"]["gone"] = test::entry(1);
  existing.cases["t/a"]["total"]["same"] = test::entry(3);
  existing.cases["t/a"]["total"]["same"].n = 1;
  const auto update =
      update_baseline(existing, "transpose",
                      {run_with("t/a", {{"global_store_sectors", 16}, {"fresh", 2}, {"same", 3}})}, classify);
  ASSERT_EQ(update.changes.size(), 3U);
  EXPECT_EQ(update.changes[0].metric, "fresh");
  EXPECT_EQ(update.changes[0].what, baseline_change::kind::added);
  EXPECT_EQ(update.changes[1].metric, "global_store_sectors");
  EXPECT_EQ(update.changes[1].what, baseline_change::kind::changed);
  EXPECT_EQ(update.changes[1].before->value, 8);
  EXPECT_EQ(update.changes[1].after->value, 16);
  EXPECT_EQ(update.changes[2].metric, "gone");
  EXPECT_EQ(update.changes[2].what, baseline_change::kind::removed);
  EXPECT_EQ(update.file.cases.at("t/a").at("total").count("gone"), 0U);
}

TEST(update_baseline, does_not_record_a_case_with_wrong_output) {
  run_results run = run_with("t/a", {{"global_store_sectors", 8}});
  run.cases[0].verified = false;
  run.cases[0].verification_message = "out[0] = 1";
  const auto update = update_baseline(std::nullopt, "transpose", {run}, classify);
  EXPECT_TRUE(update.file.cases.empty());
  ASSERT_EQ(update.not_recorded.size(), 1U);
  EXPECT_EQ(update.not_recorded[0], "t/a: wrong output: out[0] = 1");
}

TEST(update_baseline, keeps_the_entries_of_a_program_case_that_selected_no_launch) {
  const baseline_file existing = test::sample_file();
  run_results run = run_with("transpose/naive?n=2048", {});
  check_outcome empty;
  empty.metric = "selected_launches";
  empty.origin = "selection";
  empty.failing = true;
  run.cases[0].status = case_status::failed;
  run.cases[0].checks.push_back(empty);
  const auto update = update_baseline(existing, "transpose", {run}, classify);
  EXPECT_TRUE(update.measured.empty());
  ASSERT_EQ(update.not_recorded.size(), 1U);
  EXPECT_NE(update.not_recorded[0].find("selected no kernel launch"), std::string::npos);
  EXPECT_EQ(render_baseline_yaml(update.file), render_baseline_yaml(existing));
}

TEST(update_baseline, an_exact_metric_that_varies_between_repetitions_is_recorded_as_noisy_when_asked) {
  baseline_refresh_options options;
  options.varying_exact_as_noisy = true;
  const auto update = update_baseline(std::nullopt, "transpose",
                                      {run_with("t/a", {{"sectors", 4}}), run_with("t/a", {{"sectors", 4.5}}),
                                       run_with("t/a", {{"sectors", 4}})},
                                      classify, options);
  const baseline_entry& e = update.file.cases.at("t/a").at("total").at("sectors");
  EXPECT_EQ(e.cls, metric_class::noisy);
  EXPECT_EQ(e.noise, std::optional<noise_kind>(noise_kind::relative));
  ASSERT_EQ(update.recorded_as_noisy.size(), 1U);
  EXPECT_EQ(update.recorded_as_noisy[0], "t/a sectors: 4, 4.5, 4");
  EXPECT_NE(render_change_summary_markdown(update).find("### Recorded as noisy"), std::string::npos);
}

TEST(update_baseline, an_exact_metric_that_varies_stays_exact_by_default) {
  const auto update =
      update_baseline(std::nullopt, "transpose",
                      {run_with("t/a", {{"sectors", 4}}), run_with("t/a", {{"sectors", 5}})}, classify);
  EXPECT_EQ(update.file.cases.at("t/a").at("total").at("sectors").cls, metric_class::exact);
  EXPECT_TRUE(update.recorded_as_noisy.empty());
}

TEST(update_baseline, an_exact_metric_that_repeats_stays_exact_when_varying_ones_become_noisy) {
  baseline_refresh_options options;
  options.varying_exact_as_noisy = true;
  const auto update = update_baseline(std::nullopt, "transpose",
                                      {run_with("t/a", {{"sectors", 4}}), run_with("t/a", {{"sectors", 4}})},
                                      classify, options);
  EXPECT_EQ(update.file.cases.at("t/a").at("total").at("sectors").cls, metric_class::exact);
}

TEST(update_baseline, ignores_cases_of_other_suites) {
  run_results run = run_with("t/a", {{"global_store_sectors", 8}});
  run.cases[0].suite = "coalescing";
  EXPECT_TRUE(update_baseline(std::nullopt, "transpose", {run}, classify).file.cases.empty());
}

TEST(update_baseline, refuses_a_file_of_another_gpu_key) {
  baseline_file existing = test::sample_file();
  existing.gpu_key = "AD102-128sm-cuda13";
  EXPECT_THROW((void)update_baseline(existing, "transpose", {run_with("t/a", {{"x", 1}})}, classify),
               input_error);
}

TEST(update_baseline, records_the_run_metadata) {
  const auto update = update_baseline(std::nullopt, "transpose", {run_with("t/a", {{"x", 1}})}, classify);
  EXPECT_EQ(update.file.gpu_key, "GH100-132sm-cuda13");
  EXPECT_EQ(update.file.metadata.gpu_name, "NVIDIA H200");
  EXPECT_EQ(update.file.metadata.date, "2025-02-01T00:00:00Z");
}

TEST(change_summary_markdown, shows_old_new_and_delta_of_changed_entries) {
  baseline_file existing = test::sample_file();
  existing.cases["t/a"]["total"]["global_store_sectors"] = test::entry(8);
  const auto update = update_baseline(
      existing, "transpose", {run_with("t/a", {{"global_store_sectors", 16}, {"fresh", 2}})}, classify);
  const std::string md = render_change_summary_markdown(update);
  EXPECT_NE(md.find("## Baseline update: `transpose` on `GH100-132sm-cuda13`"), std::string::npos) << md;
  EXPECT_NE(md.find("1 case instance(s) measured: 1 changed, 1 added, 0 removed."), std::string::npos) << md;
  EXPECT_NE(md.find("| `t/a` | (total) | `global_store_sectors` | 8 | 16 | +8 (+100%) | [16, 16], n=1 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("### Added"), std::string::npos);
  EXPECT_EQ(md.find("### Removed"), std::string::npos);
}

TEST(change_summary_markdown, says_when_nothing_changed) {
  const auto update = update_baseline(test::sample_file(), "transpose", {}, classify);
  EXPECT_NE(render_change_summary_markdown(update).find("No baseline value changed."), std::string::npos);
}

}  // namespace
}  // namespace counterguard
