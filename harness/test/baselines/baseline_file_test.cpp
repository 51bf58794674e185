// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_file.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "baseline_test_support.hpp"
#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

using test::sample_file;

TEST(baseline_yaml, write_read_write_gives_identical_bytes) {
  const std::string first = render_baseline_yaml(sample_file());
  const std::string second = render_baseline_yaml(parse_baseline_yaml(first, "t.yaml"));
  EXPECT_EQ(first, second);
}

TEST(baseline_yaml, read_back_equals_what_was_written) {
  const baseline_file back = parse_baseline_yaml(render_baseline_yaml(sample_file()), "t.yaml");
  EXPECT_EQ(back.gpu_key, "GH100-132sm-cuda13");
  EXPECT_EQ(back.metadata.cupti, "13.0.48");
  EXPECT_EQ(back.cases, sample_file().cases);
}

TEST(baseline_yaml, orders_cases_by_name_total_first_then_kernels_and_metrics_by_name) {
  const std::string text = render_baseline_yaml(sample_file());
  const auto naive = text.find("transpose/naive?n=2048");
  const auto smem = text.find("transpose/smem?pad=1,n=2048");
  ASSERT_NE(naive, std::string::npos);
  ASSERT_NE(smem, std::string::npos);
  EXPECT_LT(naive, smem);
  const auto total = text.find("total:", naive);
  const auto kernel = text.find("counterguard::kernels::transpose::naive", naive);
  EXPECT_LT(total, kernel);
  EXPECT_LT(text.find("duration_ns", smem), text.find("shared_store_bank_conflicts", smem));
}

TEST(baseline_yaml, starts_with_a_header_comment) {
  const std::string text = render_baseline_yaml(sample_file());
  EXPECT_EQ(text.rfind("# counterguard baselines: suite 'transpose' on GPU key 'GH100-132sm-cuda13'.", 0),
            0U);
}

TEST(baseline_yaml, writes_one_line_per_metric_with_every_field) {
  const std::string text = render_baseline_yaml(sample_file());
  EXPECT_NE(text.find("global_load_sectors_per_request: {value: 4.5, class: exact, min: 4.5, max: 4.5, n: 5, "
                      "direction: lower_is_better, tolerance: 0.1}"),
            std::string::npos)
      << text;
}

TEST(baseline_yaml, a_bad_value_names_file_line_and_field) {
  std::string text = render_baseline_yaml(sample_file());
  const auto at = text.find("value: 4.5");
  text.replace(at, 10, "value: lots");
  try {
    (void)parse_baseline_yaml(text, "baselines/GH100-132sm-cuda13/transpose.yaml");
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_EQ(e.where().file, "baselines/GH100-132sm-cuda13/transpose.yaml");
    EXPECT_GT(e.where().line, 0);
    EXPECT_EQ(e.field(), "cases.transpose/naive?n=2048.total.global_load_sectors_per_request.value");
  }
}

TEST(baseline_yaml, rejects_an_unknown_field) {
  std::string text = render_baseline_yaml(sample_file());
  text.replace(text.find("tolerance: 0.1"), 14, "tolerence: 0.1");
  try {
    (void)parse_baseline_yaml(text, "b.yaml");
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_NE(e.field().find("tolerence"), std::string::npos);
    EXPECT_NE(e.valid().find("tolerance"), std::string::npos);
  }
}

TEST(baseline_yaml, rejects_an_unknown_class) {
  std::string text = render_baseline_yaml(sample_file());
  text.replace(text.find("class: noisy"), 12, "class: fuzzy");
  EXPECT_THROW((void)parse_baseline_yaml(text, "b.yaml"), input_error);
}

TEST(baseline_yaml, rejects_a_value_outside_its_spread) {
  std::string text = render_baseline_yaml(sample_file());
  text.replace(text.find("value: 10000"), 12, "value: 20000");
  EXPECT_THROW((void)parse_baseline_yaml(text, "b.yaml"), input_error);
}

TEST(baseline_yaml, rejects_a_missing_gpu_key) {
  std::string text = render_baseline_yaml(sample_file());
  text.replace(text.find("gpu_key: "), 9, "gpu_kee: ");
  EXPECT_THROW((void)parse_baseline_yaml(text, "b.yaml"), input_error);
}

TEST(baseline_yaml, rejects_broken_yaml_with_its_position) {
  try {
    (void)parse_baseline_yaml("schema_version: 1\ncases: {a: [\n", "b.yaml");
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_EQ(e.where().file, "b.yaml");
    EXPECT_GT(e.where().line, 0);
  }
}

baseline_file with_statistics() {
  baseline_file file = sample_file();
  baseline_entry& e = file.cases["transpose/smem?pad=1,n=2048"]["total"]["duration_ns"];
  e.mean = 10050.5;
  e.sd = 230.25;
  e.noise = noise_kind::duration;
  e.false_alarm_rate = 1e-5;
  return file;
}

TEST(baseline_yaml, version_2_writes_the_noise_statistics_on_the_entrys_line) {
  const std::string text = render_baseline_yaml(with_statistics());
  EXPECT_NE(text.find("schema_version: 2\n"), std::string::npos);
  EXPECT_NE(
      text.find("duration_ns: {value: 10000, class: noisy, min: 9800, max: 10400, n: 5, direction: "
                "lower_is_better, mean: 10050.5, sd: 230.25, noise: duration, false_alarm_rate: 1e-05}"),
      std::string::npos)
      << text;
  const baseline_file back = parse_baseline_yaml(text, "t.yaml");
  EXPECT_EQ(back.cases, with_statistics().cases);
  EXPECT_EQ(render_baseline_yaml(back), text);
}

TEST(baseline_yaml, reads_version_1_files_and_writes_them_back_as_they_were) {
  baseline_file file = sample_file();
  file.schema_version = 1;
  const std::string text = render_baseline_yaml(file);
  EXPECT_NE(text.find("schema_version: 1\n"), std::string::npos);
  const baseline_file back = parse_baseline_yaml(text, "t.yaml");
  EXPECT_EQ(back.schema_version, 1);
  EXPECT_FALSE(back.cases.at("transpose/smem?pad=1,n=2048").at("total").at("duration_ns").mean.has_value());
  EXPECT_EQ(render_baseline_yaml(back), text);
}

TEST(baseline_yaml, a_version_1_file_cannot_carry_version_2_fields) {
  baseline_file file = with_statistics();
  file.schema_version = 1;
  try {
    (void)parse_baseline_yaml(render_baseline_yaml(file), "b.yaml");
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_NE(e.field().find("duration_ns.mean"), std::string::npos) << e.what();
  }
}

TEST(baseline_yaml, rejects_a_mean_without_an_sd_a_negative_sd_a_bad_rate_and_an_unknown_noise_kind) {
  const std::string text = render_baseline_yaml(with_statistics());
  const std::vector<std::pair<std::string, std::string>> breakages = {
      {"sd: 230.25, ", ""},
      {"sd: 230.25", "sd: -1"},
      {"mean: 10050.5", "mean: 10500"},
      {"false_alarm_rate: 1e-05", "false_alarm_rate: 0.7"},
      {"noise: duration", "noise: seconds"},
  };
  for (const auto& [from, to] : breakages) {
    std::string broken = text;
    broken.replace(broken.find(from), from.size(), to);
    EXPECT_THROW((void)parse_baseline_yaml(broken, "b.yaml"), input_error) << from << " -> " << to;
  }
}

TEST(baseline_yaml, from_history_is_written_after_sd_and_read_back) {
  baseline_file file = with_statistics();
  file.cases["transpose/smem?pad=1,n=2048"]["total"]["duration_ns"].from_history = 3;
  const std::string text = render_baseline_yaml(file);
  EXPECT_NE(text.find("mean: 10050.5, sd: 230.25, from_history: 3, noise: duration"), std::string::npos)
      << text;
  const baseline_file back = parse_baseline_yaml(text, "t.yaml");
  EXPECT_EQ(back.cases, file.cases);
  EXPECT_EQ(render_baseline_yaml(back), text);
}

TEST(baseline_yaml, a_version_2_file_without_from_history_reads_and_writes_as_before) {
  const std::string text =
      "schema_version: 2\ngpu_key: GH100-132sm-cuda13\nsuite: transpose\nmetadata: {gpu_name: NVIDIA H200, "
      "driver: 580.65, cuda: 13.0, cupti: 13.0.48, date: 2025-01-02T03:04:05Z, git_commit: abc123, "
      "counterguard_version: 0.1.0}\ncases:\n  t/a:\n    total:\n"
      "      duration_ns: {value: 10000, class: noisy, min: 9800, max: 10400, n: 5, direction: "
      "lower_is_better, "
      "mean: 10050, sd: 230.2, noise: duration}\n";
  const baseline_file file = parse_baseline_yaml(text, "old.yaml");
  EXPECT_FALSE(file.cases.at("t/a").at("total").at("duration_ns").from_history.has_value());
  EXPECT_EQ(render_baseline_yaml(file).find("from_history"), std::string::npos);
}

TEST(baseline_yaml, rejects_from_history_of_n_or_more_and_in_version_1_files) {
  baseline_file file = with_statistics();
  file.cases["transpose/smem?pad=1,n=2048"]["total"]["duration_ns"].from_history = 5;  // n = 5
  EXPECT_THROW((void)parse_baseline_yaml(render_baseline_yaml(file), "b.yaml"), input_error);
  file.cases["transpose/smem?pad=1,n=2048"]["total"]["duration_ns"].from_history = 4;
  EXPECT_NO_THROW((void)parse_baseline_yaml(render_baseline_yaml(file), "b.yaml"));
  baseline_file old = sample_file();
  old.schema_version = 1;
  old.cases["transpose/smem?pad=1,n=2048"]["total"]["duration_ns"].from_history = 1;
  EXPECT_THROW((void)parse_baseline_yaml(render_baseline_yaml(old), "b.yaml"), input_error);
}

TEST(baseline_yaml, every_committed_baseline_file_still_loads) {
  const std::string directory = std::string(COUNTERGUARD_SOURCE_DIR) + "/baselines/GH100-132sm-cuda13/";
  for (const char* suite : {"atomics", "coalescing", "constant", "divergence", "histogram", "matmul",
                            "occupancy", "shared_banks", "spills", "texture", "transpose"}) {
    const auto file = load_baseline_file(directory + suite + ".yaml");
    ASSERT_TRUE(file.has_value()) << suite;
    EXPECT_GE(file->schema_version, 1);
    EXPECT_FALSE(file->cases.empty()) << suite;
  }
}

TEST(baseline_file_io, a_missing_file_means_no_baselines) {
  EXPECT_FALSE(load_baseline_file("/nonexistent/counterguard/none.yaml").has_value());
}

TEST(baseline_file_io, save_then_load_round_trips) {
  const std::string directory = test::make_temporary_directory();
  const std::string path = directory + "/transpose.yaml";
  save_baseline_file(path, sample_file());
  const auto loaded = load_baseline_file(path);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->cases, sample_file().cases);
}

TEST(baseline_path, is_directory_gpu_key_suite) {
  EXPECT_EQ(baseline_path("baselines", "GH100-132sm-cuda13", "transpose"),
            "baselines/GH100-132sm-cuda13/transpose.yaml");
}

TEST(kernel_key, numbers_repeated_launches_after_the_first) {
  EXPECT_EQ(kernel_key("step", 0), "step");
  EXPECT_EQ(kernel_key("step", 2), "step#2");
}

}  // namespace
}  // namespace counterguard
