// SPDX-License-Identifier: Apache-2.0
// Predicated-off lanes, measured on the H200 (harness/test/fixtures/h200_divergence: `run
// cases/divergence.yaml
// --save-counter-data`, validation/gpu_checks.sh predication): the divergence suite's expectations and its
// committed baselines hold for the recording, and the predicated case shows what threads_per_instruction
// cannot.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

const std::string recording = "harness/test/fixtures/h200_divergence";

nlohmann::json evaluate(const scratch_directory& dir, const std::string& options) {
  const auto out = dir.path() / "evaluated.json";
  const command_result r = run_counterguard("evaluate " + recording + " --cases cases/divergence.yaml " +
                                            options + " --quiet --json " + out.string());
  EXPECT_EQ(r.status, 0) << r.output;
  return nlohmann::json::parse(read_text(out));
}

const nlohmann::json& case_named(const nlohmann::json& results, const std::string& instance) {
  for (const auto& c : results["cases"]) {
    if (c["instance"] == instance)
      return c;
  }
  ADD_FAILURE() << instance << " is not in the results";
  static const nlohmann::json none;
  return none;
}

TEST(predication_recording, the_divergence_suite_passes_its_expectations_and_baselines) {
  scratch_directory dir;
  const nlohmann::json results = evaluate(dir, "--baseline-dir baselines");
  EXPECT_EQ(results["cases"].size(), 4U);
  for (const auto& c : results["cases"])
    EXPECT_EQ(c["status"], "passed") << c["instance"];
}

TEST(predication_recording, predicated_off_lanes_show_where_threads_per_instruction_reads_32) {
  scratch_directory dir;
  const nlohmann::json results = evaluate(dir, "--no-baselines");
  const nlohmann::json& totals = case_named(results, "divergence/predicated_odd_even")["totals"];
  EXPECT_EQ(totals["threads_per_instruction"]["value"], 32.0);
  EXPECT_EQ(totals["divergent_branch_targets"]["value"], 0.0);
  // 17 instructions per warp; in one of them the 16 odd lanes are predicated off.
  EXPECT_DOUBLE_EQ(totals["predicated_on_threads_per_instruction"]["value"].get<double>(),
                   32.0 - 16.0 / 17.0);
  EXPECT_EQ(totals["predicated_on_thread_instructions"]["value"], 17.0 * 1048576 - 1048576 / 2);
}

}  // namespace
}  // namespace counterguard::test
