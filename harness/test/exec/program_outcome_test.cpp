// SPDX-License-Identifier: Apache-2.0
// How the program's own ending is reported: a case "exec/program" with one check that fails the run unless
// --allow-program-failure.
#include "counterguard/exec/program_outcome.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <nlohmann/json.hpp>

namespace counterguard {
namespace {

program_outcome exited(int status) {
  program_outcome outcome;
  outcome.argv = {"./app", "-x"};
  outcome.exit_status = status;
  outcome.seconds = 1.25;
  return outcome;
}

TEST(program_outcome, a_clean_exit_passes) {
  const case_result result = program_case_result(exited(0), false);
  EXPECT_EQ(result.instance, "exec/program");
  EXPECT_EQ(result.kernel, "./app -x");
  ASSERT_EQ(result.checks.size(), 1U);
  EXPECT_EQ(result.checks[0].origin, "program");
  EXPECT_EQ(result.checks[0].metric, "exit_status");
  EXPECT_FALSE(result.checks[0].failing);
  EXPECT_EQ(result.checks[0].measured, 0.0);
  EXPECT_EQ(result.checks[0].message, "the program exited with status 0 after 1.25 s");
}

TEST(program_outcome, a_non_zero_exit_fails_and_says_how_to_accept_it) {
  const check_outcome check = program_case_result(exited(3), false).checks.at(0);
  EXPECT_TRUE(check.failing);
  EXPECT_EQ(check.verdict, check_verdict::fail);
  EXPECT_EQ(check.measured, 3.0);
  EXPECT_NE(check.message.find("--allow-program-failure"), std::string::npos);
}

TEST(program_outcome, allowed_failure_passes_and_says_so) {
  const check_outcome check = program_case_result(exited(3), true).checks.at(0);
  EXPECT_FALSE(check.failing);
  EXPECT_EQ(check.verdict, check_verdict::pass);
  EXPECT_NE(check.message.find("allowed by --allow-program-failure"), std::string::npos);
}

TEST(program_outcome, a_crash_names_the_signal_and_measures_it_as_a_shell_does) {
  program_outcome crashed;
  crashed.signal = SIGSEGV;
  crashed.core_dumped = true;
  crashed.seconds = 0.5;
  EXPECT_EQ(crashed.describe(), "was killed by signal 11 (SIGSEGV, core dumped) after 0.50 s");
  const check_outcome check = program_case_result(crashed, false).checks.at(0);
  EXPECT_TRUE(check.failing);
  EXPECT_EQ(check.measured, 139.0);
}

TEST(program_outcome, a_hang_is_reported_as_a_timeout) {
  program_outcome hung;
  hung.timed_out = true;
  hung.timeout_seconds = 600;
  EXPECT_FALSE(hung.succeeded());
  const check_outcome check = program_case_result(hung, false).checks.at(0);
  EXPECT_TRUE(check.failing);
  EXPECT_FALSE(check.measured.has_value());
  EXPECT_NE(check.message.find("timeout of 600 s"), std::string::npos);
}

TEST(program_outcome, json_round_trips) {
  program_outcome outcome = exited(0);
  outcome.signal = std::nullopt;
  const program_outcome back =
      program_outcome_from_json(program_outcome_to_json(outcome), "exec.json", "program");
  EXPECT_EQ(back.argv, outcome.argv);
  EXPECT_EQ(back.exit_status, 0);
  EXPECT_FALSE(back.signal.has_value());
  EXPECT_DOUBLE_EQ(back.seconds, 1.25);
}

}  // namespace
}  // namespace counterguard
