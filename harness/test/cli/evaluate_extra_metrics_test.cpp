// SPDX-License-Identifier: Apache-2.0
// One measurement path: `evaluate` measures what the GPU run measured, the metrics asked for with --metric
// included (they were once dropped: evaluation planned only the expectations' metrics).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

const std::string recording = "harness/test/fixtures/h200_builtin";
const std::string instance = "transpose/smem_unpadded?n=1024";

// A copy of the H200 recording whose transpose case says it measured two metrics beyond its expectations,
// as `run --metric X --save-counter-data` records them.
std::filesystem::path recording_with_extras(const scratch_directory& dir, const nlohmann::json& metrics) {
  const auto copy = dir.path() / "recording";
  std::filesystem::copy(std::filesystem::path(COUNTERGUARD_SOURCE_DIR) / recording, copy,
                        std::filesystem::copy_options::recursive);
  const auto manifest_path = copy / "0086" / "manifest.json";
  nlohmann::json manifest = nlohmann::json::parse(read_text(manifest_path));
  EXPECT_EQ(manifest["cases"][0]["name"], instance);
  manifest["metadata"]["metrics"] = metrics;
  std::ofstream(manifest_path) << manifest.dump(2);
  return copy;
}

nlohmann::json evaluate_totals(const scratch_directory& dir, const std::filesystem::path& copy) {
  const auto out = dir.path() / "evaluated.json";
  const command_result r = run_counterguard("evaluate " + copy.string() + " --cases cases --filter '" +
                                            instance + "' --no-baselines --quiet --json " + out.string());
  EXPECT_EQ(r.status, 0) << r.output;
  return nlohmann::json::parse(read_text(out))["cases"][0]["totals"];
}

TEST(evaluate_extra_metrics, metrics_the_run_measured_beyond_the_expectations_are_evaluated_too) {
  scratch_directory dir;
  const auto copy = recording_with_extras(dir, {"shared_store_bank_conflicts", "global_store_sectors",
                                                "smsp__sass_inst_executed_op_global_ld.sum"});
  const nlohmann::json totals = evaluate_totals(dir, copy);
  // n = 1024: 1024 * 1024 / 32 warp loads; 4 sectors for each of as many warp stores.
  EXPECT_EQ(totals["smsp__sass_inst_executed_op_global_ld.sum"]["value"], 32768.0);
  EXPECT_EQ(totals["global_store_sectors"]["value"], 131072.0);
  EXPECT_EQ(totals["global_store_sectors"]["class"], "exact");
  // The expectations' own metrics are measured as before.
  EXPECT_EQ(totals["shared_store_bank_conflicts"]["value"], 31.0 * 1024 * 1024 / 32);
}

TEST(evaluate_extra_metrics, a_recording_without_the_list_measures_the_expectations_only) {
  scratch_directory dir;
  const auto copy = dir.path() / "recording";
  std::filesystem::copy(std::filesystem::path(COUNTERGUARD_SOURCE_DIR) / recording, copy,
                        std::filesystem::copy_options::recursive);
  const nlohmann::json totals = evaluate_totals(dir, copy);
  EXPECT_FALSE(totals.contains("global_store_sectors"));
  EXPECT_TRUE(totals.contains("shared_store_bank_conflicts"));
}

TEST(evaluate_extra_metrics, a_malformed_metric_list_is_an_input_error_naming_the_manifest) {
  scratch_directory dir;
  const auto copy = recording_with_extras(dir, "global_store_sectors");
  const command_result r = run_counterguard("evaluate " + copy.string() + " --cases cases --filter '" +
                                            instance + "' --no-baselines --quiet");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("0086/manifest.json"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("metadata.metrics"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace counterguard::test

namespace counterguard::test {
namespace {

// Recorded on the H200 (validation/gpu_checks.sh extras): `run cases/transpose.yaml
// cases/coalescing.yaml
// --metric dram_read_bytes --metric l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum --save-counter-data D`.
TEST(evaluate_extra_metrics, evaluating_an_h200_recording_gives_every_value_the_run_reported) {
  scratch_directory dir;
  const std::string recording_dir = "harness/test/fixtures/h200_extra_metrics";
  const auto out = dir.path() / "evaluated.json";
  const command_result r =
      run_counterguard("evaluate " + recording_dir + " --no-baselines --quiet --json " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json run = nlohmann::json::parse(
      read_text(std::filesystem::path(COUNTERGUARD_SOURCE_DIR) / recording_dir / "results.json"));
  const nlohmann::json evaluated = nlohmann::json::parse(read_text(out));
  ASSERT_EQ(evaluated["cases"].size(), run["cases"].size());
  std::size_t compared = 0;
  std::size_t extras = 0;
  for (std::size_t i = 0; i < run["cases"].size(); ++i) {
    for (const auto& [metric, total] : run["cases"][i]["totals"].items()) {
      EXPECT_EQ(evaluated["cases"][i]["totals"][metric]["value"], total["value"])
          << run["cases"][i]["instance"] << " " << metric;
      ++compared;
      extras +=
          metric == "dram_read_bytes" || metric == "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" ? 1 : 0;
    }
  }
  EXPECT_EQ(compared, 174U);
  EXPECT_EQ(extras, 46U);
}

}  // namespace
}  // namespace counterguard::test
