// SPDX-License-Identifier: Apache-2.0
// `counterguard history import|list` and `--history` end to end, with the H200 recording.
#include <gtest/gtest.h>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

const std::string recorded_results = "harness/test/fixtures/h200_builtin/results.json";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(history_command, import_then_list_shows_the_run_and_a_second_import_changes_nothing) {
  scratch_directory dir;
  const std::string db = (dir.path() / "history.db").string();
  command_result r = run_counterguard("history import --history " + db + " " + recorded_results);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, recorded_results +
                                     ": recorded as run 1 (93 cases, GH100-132sm-cuda13, commit "
                                     "6955cc2194e6)"))
      << r.output;

  r = run_counterguard("history list --history " + db);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "RUN  STARTED")) << r.output;
  EXPECT_TRUE(contains(r.output, "1    2026-11-30T03:22:42Z  6955cc2194e6  GH100-132sm-cuda13  run   93"))
      << r.output;

  r = run_counterguard("history import --history " + db + " " + recorded_results);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "already recorded as run 1")) << r.output;
  EXPECT_TRUE(contains(r.output, "0 imported, 1 already recorded, 0 refused")) << r.output;
}

TEST(history_command, a_malformed_file_is_refused_by_name_and_the_others_are_still_imported) {
  scratch_directory dir;
  const std::string db = (dir.path() / "history.db").string();
  const auto broken = dir.write("broken.json", "{\"schema_version\": 1, \"metadata\": ");
  const auto incomplete = dir.write("incomplete.json", "{\"schema_version\": 1, \"cases\": []}");
  const command_result r = run_counterguard("history import --history " + db + " " + broken.string() + " " +
                                            recorded_results + " " + incomplete.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, broken.string() + ":1:35: field 'metadata': not valid JSON")) << r.output;
  EXPECT_TRUE(contains(r.output, incomplete.string() + ": field 'metadata': missing")) << r.output;
  EXPECT_TRUE(contains(r.output, "1 imported, 0 already recorded, 2 refused")) << r.output;
  const command_result list = run_counterguard("history list --history " + db);
  EXPECT_TRUE(contains(list.output, "6955cc2194e6")) << list.output;
}

TEST(history_command, list_filters_by_gpu_key_and_a_missing_database_is_an_input_error) {
  scratch_directory dir;
  const std::string db = (dir.path() / "history.db").string();
  ASSERT_EQ(run_counterguard("history import --history " + db + " " + recorded_results).status, 0);
  command_result r = run_counterguard("history list --history " + db + " --gpu-key GH100-114sm-cuda13");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "no runs recorded in " + db + " that match")) << r.output;

  r = run_counterguard("history list --history " + (dir.path() / "missing.db").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "missing.db: no history database here")) << r.output;
}

TEST(history_command, a_file_that_is_not_a_database_is_an_input_error_naming_it) {
  scratch_directory dir;
  const auto notes = dir.write("notes.db", std::string(512, 'x'));
  const command_result r = run_counterguard("history list --history " + notes.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(contains(r.output, notes.string() + ": not a counterguard history database")) << r.output;
}

TEST(history_command, evaluate_records_its_results_which_then_import_as_the_same_run) {
  scratch_directory dir;
  const std::string db = (dir.path() / "history.db").string();
  const std::string json = (dir.path() / "results.json").string();
  command_result r = run_counterguard(
      "evaluate harness/test/fixtures/h200_builtin --cases cases --filter 'transpose/*' "
      "--no-baselines --quiet --json " +
      json + " --history " + db);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "recorded as run 1 in the history " + db)) << r.output;
  r = run_counterguard("history import --history " + db + " " + json);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "already recorded as run 1")) << r.output;
  r = run_counterguard("history list --history " + db);
  EXPECT_TRUE(contains(r.output, "evaluate")) << r.output;
  EXPECT_TRUE(contains(r.output, "counterguard evaluate")) << r.output;
}

TEST(history_command, run_without_a_gpu_records_its_static_results) {
  scratch_directory dir;
  const std::string db = (dir.path() / "history.db").string();
  const command_result r = run_counterguard("run cases/spills.yaml --quiet --history " + db);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "recorded as run 1")) << r.output;
  EXPECT_TRUE(contains(run_counterguard("history list --history " + db).output, "static")) << r.output;
}

}  // namespace
}  // namespace counterguard::test
