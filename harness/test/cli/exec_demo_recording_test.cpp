// SPDX-License-Identifier: Apache-2.0
// A real `counterguard exec` recording from the H200 (harness/test/fixtures/h200_exec_demo: tools/exec_demo
// under `exec --cases tools/exec_demo/demo.yaml --save-counter-data`, validation/exec_checks.sh demo):
// evaluated on a machine without a GPU, it reproduces every value and verdict of the GPU run (results.json
// beside it).
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace counterguard::test
