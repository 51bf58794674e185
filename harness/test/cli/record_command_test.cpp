// SPDX-License-Identifier: Apache-2.0
// `counterguard record FILE -- PROGRAM` and `baseline update SUITE -- PROGRAM` as a user meets them without a
// GPU: what they refuse and why (validation/exec_lifecycle.sh runs them on the H200).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

const std::string program_suite_text =
    "suite: s\ncases:\n  - name: a\n    select: k\n    measure: [registers_per_thread]\n";

TEST(record_command, asks_for_the_program_after_the_separator) {
  scratch_directory dir;
  const command_result r = run_counterguard("record " + (dir.path() / "s.yaml").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("no program given; name it after '--'"), std::string::npos) << r.output;
}

TEST(record_command, does_not_write_over_a_suite_without_force) {
  scratch_directory dir;
  const auto file = dir.write("s.yaml", program_suite_text);
  const command_result r = run_counterguard("record " + file.string() + " -- /bin/true");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("exists already; give --force"), std::string::npos) << r.output;
  EXPECT_EQ(read_text(file), program_suite_text);
}

TEST(record_command, needs_a_gpu_to_run_the_program_on) {
  if (std::filesystem::exists("/proc/driver/nvidia/gpus"))
    GTEST_SKIP() << "this machine has a GPU";
  scratch_directory dir;
  const command_result r = run_counterguard("record " + (dir.path() / "s.yaml").string() + " -- /bin/true");
  EXPECT_EQ(r.status, 3) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "s.yaml"));
}

TEST(baseline_update_of_a_program, records_per_line_profiles_on_a_gpu) {
  if (std::filesystem::exists("/proc/driver/nvidia/gpus"))
    GTEST_SKIP() << "this machine has a GPU";
  scratch_directory dir;
  const auto file = dir.write("s.yaml", program_suite_text);
  const command_result r =
      run_counterguard("baseline update " + file.string() + " --with-lines -- /bin/true");
  EXPECT_EQ(r.status, 3) << r.output;  // accepted; it needs the GPU to run the program on
}

TEST(baseline_update_of_a_program, refuses_per_line_profiles_of_a_recording) {
  scratch_directory dir;
  const auto file = dir.write("s.yaml", program_suite_text);
  const command_result r =
      run_counterguard("baseline update " + file.string() +
                       " --with-lines --from-recording harness/test/fixtures/h200_exec_demo");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("a recording has none"), std::string::npos) << r.output;
}

TEST(exec_blame_options, the_number_of_lines_needs_blame) {
  scratch_directory dir;
  const auto file = dir.write("s.yaml", program_suite_text);
  const command_result r = run_counterguard("exec " + file.string() + " --blame-top 3 -- /bin/true");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--blame"), std::string::npos) << r.output;
}

TEST(baseline_update_of_a_program, refuses_recordings_and_a_program_together) {
  scratch_directory dir;
  const auto file = dir.write("s.yaml", program_suite_text);
  const command_result r =
      run_counterguard("baseline update " + file.string() +
                       " --from-recording harness/test/fixtures/h200_exec_demo -- /bin/true");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("both recordings and a program are given"), std::string::npos) << r.output;
}

TEST(baseline_update_of_a_program, passes_the_program_its_arguments_untouched_by_counterguard_options) {
  scratch_directory dir;
  const auto file = dir.write("s.yaml", program_suite_text);
  // '--repeat 0' after '--' is the program's: counterguard's own --repeat (1..1000) would refuse it.
  const command_result r = run_counterguard("baseline update " + file.string() + " -- /bin/true --repeat 0");
  EXPECT_NE(r.status, 2) << r.output;
}

}  // namespace
}  // namespace counterguard::test
