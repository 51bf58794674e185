// CI has no GPU: these tests take counter data recorded on an H200 (harness/test/fixtures/h200_builtin, made
// by `counterguard run cases/ --save-counter-data`, see evidence/h200/README.md) through offline evaluation
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
      auto& entry = file.cases.at("transpose/smem_padded?n=2048")
                        .at(baseline_total_key)
                        .at("shared_store_bank_conflicts_hw");
      // The recording measured 5669; a refresh that read 5369 five times over. Model sd 3.5 sqrt(5369) = 258:
      // the default rate gives +-1626, a rate of 0.4 gives +-60.
      entry.value = entry.min = entry.max = 5369;
      entry.mean = 5369;
      entry.sd = 0;
      entry.n = 5;
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

}  // namespace
}  // namespace counterguard::test
