// SPDX-License-Identifier: Apache-2.0
// CI has no GPU: these tests take counter data recorded on an H200 (harness/test/fixtures/h200_builtin, made
// by `counterguard run cases/ --save-counter-data`: validation/gpu_checks.sh run) through offline evaluation
// and the committed baselines, end to end through the command line.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli_test_support.hpp"
#include "counterguard/baselines/baseline_file.hpp"

namespace counterguard::test {
namespace {

const std::string recording = "harness/test/fixtures/h200_builtin";
const std::string gpu_key = "GH100-132sm-cuda13";

nlohmann::json read_json(const std::filesystem::path& path) {
  return nlohmann::json::parse(read_text(path));
}

// A copy of the committed baselines that a test may change.
std::filesystem::path copy_baselines(const scratch_directory& dir) {
  const auto target = dir.path() / "baselines";
  std::filesystem::copy(std::filesystem::path(COUNTERGUARD_SOURCE_DIR) / "baselines", target,
                        std::filesystem::copy_options::recursive);
  return target;
}

void edit_baseline(const std::filesystem::path& baselines, const std::string& suite,
                   const std::function<void(baseline_file&)>& edit) {
  const std::string path = baseline_path(baselines.string(), gpu_key, suite);
  std::optional<baseline_file> file = load_baseline_file(path);
  ASSERT_TRUE(file.has_value()) << path;
  edit(*file);
  save_baseline_file(path, *file);
}

TEST(recorded_run, evaluation_reproduces_every_value_the_gpu_measured) {
  scratch_directory dir;
  const auto out = dir.path() / "evaluated.json";
  const command_result r = run_counterguard("evaluate " + recording +
                                            " --cases cases --no-baselines --quiet --json " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json recorded =
      read_json(std::filesystem::path(COUNTERGUARD_SOURCE_DIR) / recording / "results.json");
  const nlohmann::json evaluated = read_json(out);
  ASSERT_EQ(evaluated["cases"].size(), recorded["cases"].size());
  std::size_t compared = 0;
  for (std::size_t i = 0; i < recorded["cases"].size(); ++i) {
    const auto& expected = recorded["cases"][i];
    const auto& actual = evaluated["cases"][i];
    ASSERT_EQ(actual["instance"], expected["instance"]);
    for (const auto& [metric, value] : expected["totals"].items()) {
      EXPECT_EQ(actual["totals"][metric]["value"], value["value"]) << expected["instance"] << " " << metric;
      ++compared;
    }
  }
  EXPECT_GT(compared, 300U);
}

TEST(recorded_run, passes_its_expectations_and_the_committed_baselines) {
  const command_result r =
      run_counterguard("evaluate " + recording + " --cases cases --baseline-dir baselines");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("REGRESSION"), std::string::npos) << r.output;
}

TEST(recorded_run, a_baseline_below_the_measurement_is_a_regression_naming_the_metric) {
  scratch_directory dir;
  const auto baselines = copy_baselines(dir);
  edit_baseline(baselines, "transpose", [](baseline_file& file) {
    auto& entry = file.cases.at("transpose/smem_unpadded?n=2048")
                      .at(baseline_total_key)
                      .at("shared_store_bank_conflicts");
    entry.value = entry.min = entry.max = 4000000;  // the recording measured 4063232
  });
  const command_result r =
      run_counterguard("evaluate " + recording + " --cases cases --baseline-dir " + baselines.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("shared_store_bank_conflicts"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("regression"), std::string::npos) << r.output;
}

TEST(recorded_run, a_zero_baseline_must_stay_zero) {
  scratch_directory dir;
  const auto baselines = copy_baselines(dir);
  edit_baseline(baselines, "coalescing", [](baseline_file& file) {
    auto& entry = file.cases.at("coalescing/contiguous").at(baseline_total_key).at("global_load_sectors");
    entry.value = entry.min = entry.max = 0;
  });
  const command_result r =
      run_counterguard("evaluate " + recording + " --cases cases --baseline-dir " + baselines.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("global_load_sectors"), std::string::npos) << r.output;
}

TEST(recorded_run, an_improvement_is_reported_and_fails_only_with_strict) {
  scratch_directory dir;
  const auto baselines = copy_baselines(dir);
  edit_baseline(baselines, "transpose", [](baseline_file& file) {
    auto& entry = file.cases.at("transpose/naive?n=2048").at(baseline_total_key).at("global_store_sectors");
    entry.value = entry.min = entry.max = entry.value * 2;  // the measurement is now better than the baseline
  });
  const std::string command = "evaluate " + recording + " --cases cases --baseline-dir " + baselines.string();
  const command_result lenient = run_counterguard(command);
  EXPECT_EQ(lenient.status, 0) << lenient.output;
  EXPECT_NE(lenient.output.find("improvement"), std::string::npos) << lenient.output;
  EXPECT_EQ(run_counterguard(command + " --strict").status, 1);
}

TEST(recorded_run, the_false_alarm_rate_sets_the_width_of_noisy_bands_and_an_entrys_own_rate_wins) {
  scratch_directory dir;
  const auto baselines = copy_baselines(dir);
  const auto refresh = [&](std::optional<double> entry_rate) {
    edit_baseline(baselines, "transpose", [&](baseline_file& file) {
      file.schema_version = 2;  // mean and sd are version 2 fields
      // Every other noisy entry keeps a strict rate of its own: only the entry below follows the command
      // line.
      for (auto& [instance, kernels] : file.cases) {
        for (auto& [kernel, metrics] : kernels) {
          for (auto& [metric, other] : metrics) {
            if (other.cls == metric_class::noisy)
              other.false_alarm_rate = 1e-6;
          }
        }
      }
      auto& entry = file.cases.at("transpose/smem_padded?n=2048")
                        .at(baseline_total_key)
                        .at("shared_store_bank_conflicts_hw");
      // The recording measured 5669; a refresh that read 5369 five times over. Model sd 3.5 sqrt(5369) = 258:
      // the default rate gives +-1626, a rate of 0.4 gives +-60.
      entry.value = entry.min = entry.max = 5369;
      entry.mean = 5369;
      entry.sd = 0;
      entry.n = 5;
      entry.from_history.reset();  // all five from the refresh itself
      entry.false_alarm_rate = entry_rate;
    });
  };
  const std::string command = "evaluate " + recording + " --cases cases --filter 'transpose/smem_padded*'" +
                              " --baseline-dir " + baselines.string();
  refresh(std::nullopt);
  const command_result by_default = run_counterguard(command);
  EXPECT_EQ(by_default.status, 0) << by_default.output;
  const command_result loose = run_counterguard(command + " --false-alarm-rate 0.4");
  EXPECT_EQ(loose.status, 1) << loose.output;
  EXPECT_NE(loose.output.find("shared_store_bank_conflicts_hw"), std::string::npos) << loose.output;
  refresh(1e-6);
  EXPECT_EQ(run_counterguard(command + " --false-alarm-rate 0.4").status, 0);
  EXPECT_EQ(run_counterguard(command + " --false-alarm-rate 0.7").status, 2);
}

TEST(recorded_run, a_baseline_of_another_gpu_key_is_refused) {
  scratch_directory dir;
  const auto baselines = copy_baselines(dir);
  edit_baseline(baselines, "coalescing", [](baseline_file& file) { file.gpu_key = "GA100-108sm-cuda13"; });
  const command_result r =
      run_counterguard("evaluate " + recording + " --cases cases --baseline-dir " + baselines.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("GA100-108sm-cuda13"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(gpu_key), std::string::npos) << r.output;
}

TEST(recorded_run, a_changed_expectation_that_contradicts_the_gpu_fails) {
  scratch_directory dir;
  std::string transpose = read_text(std::filesystem::path(COUNTERGUARD_SOURCE_DIR) / "cases/transpose.yaml");
  const std::string padded = "{equals: \"31 * n * n / 32\"}";
  const auto at = transpose.find(padded);
  ASSERT_NE(at, std::string::npos);
  transpose.replace(at, padded.size(), "{equals: \"30 * n * n / 32\"}");
  const auto suite = dir.write("transpose.yaml", transpose);
  const command_result r = run_counterguard("evaluate " + recording + " --cases " + suite.string() +
                                            " --filter 'transpose/smem_unpadded*' --no-baselines");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("shared_store_bank_conflicts"), std::string::npos) << r.output;
}

TEST(recorded_run, writes_a_self_contained_html_report_of_every_case) {
  scratch_directory dir;
  const auto html = dir.path() / "report.html";
  const command_result r = run_counterguard(
      "evaluate " + recording + " --cases cases --baseline-dir baselines --quiet --html " + html.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string page = read_text(html);
  std::size_t cases = 0;
  for (auto at = page.find("<details class=\"case"); at != std::string::npos;
       at = page.find("<details class=\"case", at + 1))
    ++cases;
  EXPECT_EQ(cases, 93U);
  EXPECT_NE(page.find(">PASSED<"), std::string::npos);
  EXPECT_EQ(page.find("http"), std::string::npos);
  EXPECT_NE(page.find("cases/transpose.yaml:"), std::string::npos) << "checks name their YAML line";
}

TEST(recorded_run, junit_points_a_regression_at_the_yaml_and_names_the_gpu) {
  scratch_directory dir;
  const auto baselines = copy_baselines(dir);
  edit_baseline(baselines, "transpose", [](baseline_file& file) {
    auto& entry = file.cases.at("transpose/smem_unpadded?n=2048")
                      .at(baseline_total_key)
                      .at("shared_store_bank_conflicts");
    entry.value = entry.min = entry.max = 4000000;
  });
  const auto junit = dir.path() / "junit.xml";
  const command_result r =
      run_counterguard("evaluate " + recording + " --cases cases --quiet --baseline-dir " +
                       baselines.string() + " --junit " + junit.string());
  ASSERT_EQ(r.status, 1) << r.output;
  const std::string xml = read_text(junit);
  const std::string yaml = read_text(std::filesystem::path(COUNTERGUARD_SOURCE_DIR) / "cases/transpose.yaml");
  // The line of the case's own expectation of the metric that regressed.
  std::size_t line = 1;
  const auto smem_unpadded = yaml.find("name: smem_unpadded");
  const auto expectation = yaml.find("shared_store_bank_conflicts:", smem_unpadded);
  ASSERT_NE(expectation, std::string::npos);
  for (std::size_t i = 0; i < expectation; ++i)
    line += yaml[i] == '\n' ? 1 : 0;
  const auto testcase = xml.find("name=\"transpose/smem_unpadded?n=2048\"");
  ASSERT_NE(testcase, std::string::npos);
  const std::string tag = xml.substr(testcase, xml.find('>', testcase) - testcase);
  EXPECT_NE(tag.find("file=\"cases/transpose.yaml\" line=\"" + std::to_string(line) + "\""),
            std::string::npos)
      << tag;
  EXPECT_NE(xml.find("<property name=\"gpu_key\" value=\"" + gpu_key + "\"/>"), std::string::npos);
}

TEST(recorded_run, a_markdown_summary_over_its_limit_points_at_the_json) {
  scratch_directory dir;
  const auto baselines = copy_baselines(dir);
  edit_baseline(baselines, "coalescing", [](baseline_file& file) {
    for (auto& [instance, kernels] : file.cases) {
      for (auto& [kernel, metrics] : kernels) {
        for (auto& [metric, entry] : metrics) {
          if (entry.cls == metric_class::exact && entry.value > 0)
            entry.value = entry.min = entry.max = entry.value / 2;  // every count regressed
        }
      }
    }
  });
  const auto md = dir.path() / "summary.md";
  const auto json = dir.path() / "results.json";
  const command_result r = run_counterguard(
      "evaluate " + recording + " --cases cases --quiet --baseline-dir " + baselines.string() +
      " --markdown " + md.string() + " --markdown-limit 3000 --json " + json.string());
  ASSERT_EQ(r.status, 1) << r.output;
  const std::string summary = read_text(md);
  EXPECT_LE(summary.size(), 3000U);
  EXPECT_NE(
      summary.find(" entries are not listed here** for size; all of them are in `" + json.string() + "`"),
      std::string::npos)
      << summary;
  EXPECT_NE(summary.find("**93 cases**"), std::string::npos);
}

}  // namespace
}  // namespace counterguard::test
