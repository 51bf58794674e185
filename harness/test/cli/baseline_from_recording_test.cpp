// SPDX-License-Identifier: Apache-2.0
// `counterguard baseline update --from-recording DIR...`: recordings made on the H200 (harness/test/fixtures)
// merged into baselines on a machine without a GPU, through the same merge as repetitions measured live.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

namespace fs = std::filesystem;

const std::string builtin_recording = "harness/test/fixtures/h200_builtin";
const std::string exec_demo_recorded = "harness/test/fixtures/h200_exec_demo";
const std::string h200_key = "GH100-132sm-cuda13";

fs::path in_source(const std::string& relative) {
  return fs::path(COUNTERGUARD_SOURCE_DIR) / relative;
}

TEST(baseline_from_recording, the_builtin_recording_agrees_with_the_committed_baselines) {
  scratch_directory dir;
  const fs::path baselines = dir.path() / "baselines";
  fs::copy(in_source("baselines"), baselines, fs::copy_options::recursive);
  const command_result r = run_counterguard("baseline update --from-recording " + builtin_recording +
                                            " --baseline-dir " + baselines.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("## Baseline update: `transpose` on `" + h200_key + "`"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("### Changed"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("### Added"), std::string::npos) << r.output;
  for (const auto& file : fs::directory_iterator(in_source("baselines/" + h200_key))) {
    EXPECT_EQ(read_text(baselines / h200_key / file.path().filename()), read_text(file.path()))
        << file.path().filename();
  }
}

TEST(baseline_from_recording, writes_the_baselines_of_an_exec_recording_that_its_evaluation_then_passes) {
  scratch_directory dir;
  const fs::path baselines = dir.path() / "baselines";
  const command_result refresh =
      run_counterguard("baseline update --from-recording " + exec_demo_recorded + " " + exec_demo_recorded +
                       " --baseline-dir " + baselines.string());
  ASSERT_EQ(refresh.status, 0) << refresh.output;
  const std::string file = read_text(baselines / h200_key / "exec_demo.yaml");
  EXPECT_NE(
      file.find("shared_store_bank_conflicts: {value: 4063232, class: exact, min: 4063232, max: 4063232, "
                "n: 2"),
      std::string::npos)
      << file;
  EXPECT_FALSE(fs::exists(baselines / h200_key / "exec.yaml")) << "the program's own case has no baselines";
  const command_result gate =
      run_counterguard("evaluate " + exec_demo_recorded + " --baseline-dir " + baselines.string());
  EXPECT_EQ(gate.status, 0) << gate.output;
  EXPECT_NE(gate.output.find("0 regression"), std::string::npos) << gate.output;
  EXPECT_NE(gate.output.find("0 new"), std::string::npos) << gate.output;
}

TEST(baseline_from_recording, a_second_refresh_from_the_same_recording_changes_nothing) {
  scratch_directory dir;
  const std::string baselines = (dir.path() / "baselines").string();
  ASSERT_EQ(run_counterguard("baseline update --from-recording " + exec_demo_recorded + " --baseline-dir " +
                             baselines)
                .status,
            0);
  const std::string before = read_text(fs::path(baselines) / h200_key / "exec_demo.yaml");
  const command_result again = run_counterguard("baseline update --from-recording " + exec_demo_recorded +
                                                " --baseline-dir " + baselines);
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.output.find("No baseline value changed."), std::string::npos) << again.output;
  EXPECT_EQ(read_text(fs::path(baselines) / h200_key / "exec_demo.yaml"), before);
}

TEST(baseline_from_recording, replace_all_and_summary_work_as_for_measured_repetitions) {
  scratch_directory dir;
  const fs::path baselines = dir.path() / "baselines";
  fs::copy(in_source("baselines"), baselines, fs::copy_options::recursive);
  const fs::path summary = dir.path() / "summary.md";
  const command_result r = run_counterguard("baseline update --from-recording " + builtin_recording +
                                            " --filter 'transpose/*'" + " --replace-all --summary " +
                                            summary.string() + " --baseline-dir " + baselines.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string md = read_text(summary);
  EXPECT_NE(md.find("## Baseline update: `transpose`"), std::string::npos) << md;
  EXPECT_EQ(md.find("`atomics`"), std::string::npos) << "only the filtered suite: " << md;
  EXPECT_EQ(md.find("kept as they were"), std::string::npos) << "--replace-all keeps none: " << md;
}

TEST(baseline_from_recording, refuses_repeat_since_each_recording_is_one_repetition) {
  const command_result r =
      run_counterguard("baseline update --from-recording " + exec_demo_recorded + " --repeat 3");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("each --from-recording DIR is one repetition"), std::string::npos) << r.output;
}

TEST(baseline_from_recording, refuses_per_line_profiles_which_a_recording_does_not_hold) {
  const command_result r =
      run_counterguard("baseline update --from-recording " + builtin_recording + " --with-lines");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--with-lines"), std::string::npos) << r.output;
}

TEST(baseline_from_recording, names_a_directory_that_is_not_a_recording) {
  scratch_directory dir;
  const command_result r = run_counterguard("baseline update --from-recording " + dir.path().string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find(dir.path().string()), std::string::npos) << r.output;
}

}  // namespace
}  // namespace counterguard::test
