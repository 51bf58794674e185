// SPDX-License-Identifier: Apache-2.0
// A real `counterguard exec` recording from the H200 (harness/test/fixtures/h200_exec_demo: tools/exec_demo
// under `exec --cases tools/exec_demo/demo.yaml --save-counter-data`, validation/exec_checks.sh demo):
// evaluated on a machine without a GPU, it reproduces every value and verdict of the GPU run (results.json
// beside it).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

const std::string recording = "harness/test/fixtures/h200_exec_demo";

TEST(exec_demo_recording, evaluates_to_the_values_and_verdicts_of_the_gpu_run) {
  scratch_directory dir;
  const auto out = dir.path() / "evaluated.json";
  const command_result r =
      run_counterguard("evaluate " + recording + " --no-baselines --quiet --json " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json measured = nlohmann::json::parse(
      read_text(std::string(COUNTERGUARD_SOURCE_DIR) + "/" + recording + "/results.json"));
  const nlohmann::json evaluated = nlohmann::json::parse(read_text(out));
  EXPECT_EQ(evaluated["metadata"]["mode"], "evaluate");
  ASSERT_EQ(evaluated["cases"].size(), measured["cases"].size());
  std::size_t compared = 0;
  for (std::size_t i = 0; i < measured["cases"].size(); ++i) {
    const nlohmann::json& expected = measured["cases"][i];
    const nlohmann::json& actual = evaluated["cases"][i];
    ASSERT_EQ(actual["instance"], expected["instance"]);
    EXPECT_EQ(actual["status"], expected["status"]) << expected["instance"];
    for (const auto& [metric, value] : expected["totals"].items()) {
      EXPECT_EQ(actual["totals"][metric]["value"], value["value"]) << expected["instance"] << " " << metric;
      ++compared;
    }
  }
  EXPECT_GT(compared, 15U);
}

TEST(exec_demo_recording, names_the_bank_conflicts_of_the_unpadded_tile_in_an_unmodified_program) {
  scratch_directory dir;
  const auto out = dir.path() / "evaluated.json";
  ASSERT_EQ(
      run_counterguard("evaluate " + recording + " --no-baselines --quiet --json " + out.string()).status, 0);
  const nlohmann::json evaluated = nlohmann::json::parse(read_text(out));
  std::map<std::string, double> conflicts;
  for (const auto& c : evaluated["cases"]) {
    if (c["totals"].contains("shared_store_bank_conflicts"))
      conflicts[c["instance"]] = c["totals"]["shared_store_bank_conflicts"]["value"];
  }
  EXPECT_EQ(conflicts["exec_demo/tiled_unpadded"], 4063232.0);
  EXPECT_EQ(conflicts["exec_demo/tiled_padded"], 0.0);
  EXPECT_EQ(conflicts.size(), 2U);
}

// Recorded before launches kept their stream ids and preferred carve-outs: asked for ncu's names that need
// them, each launch reads "not measured" saying why (never 0), and the barriers come from its recorded code.
TEST(exec_demo_recording, launch_values_the_recording_did_not_keep_are_not_measured_and_say_why) {
  scratch_directory dir;
  const auto copy = dir.path() / "recording";
  std::filesystem::copy(std::string(COUNTERGUARD_SOURCE_DIR) + "/" + recording, copy,
                        std::filesystem::copy_options::recursive);
  nlohmann::json exec = nlohmann::json::parse(read_text(copy / "exec.json"));
  exec["extra_metrics"] = {"launch__stream_id", "launch__shared_mem_config_size", "launch__barrier_count"};
  std::ofstream(copy / "exec.json", std::ios::trunc) << exec.dump(2);
  const auto out = dir.path() / "evaluated.json";
  const command_result r =
      run_counterguard("evaluate " + copy.string() + " --no-baselines --quiet --json " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json evaluated = nlohmann::json::parse(read_text(out));
  std::size_t launches = 0;
  for (const auto& c : evaluated["cases"]) {
    for (const auto& kernel : c["kernels"]) {
      ++launches;
      EXPECT_FALSE(kernel["metrics"].contains("launch__stream_id"));
      EXPECT_NE(kernel["unmeasured"].value("launch__stream_id", "").find("did not keep"), std::string::npos);
      EXPECT_NE(kernel["unmeasured"].value("launch__shared_mem_config_size", "").find("carve-out"),
                std::string::npos);
      EXPECT_TRUE(kernel["metrics"].contains("launch__barrier_count")) << kernel["function"];
    }
  }
  EXPECT_GT(launches, 3U);
}

}  // namespace
}  // namespace counterguard::test
