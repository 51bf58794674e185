// SPDX-License-Identifier: Apache-2.0
// Unknown commands and options are named with the closest valid ones, at every level of the command line.
#include <gtest/gtest.h>

#include "cli_test_support.hpp"

namespace counterguard::test {
namespace {

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(unknown_arguments, a_misspelled_command_is_named_with_the_closest_command) {
  const command_result r = run_counterguard("statc cases");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(mentions(r.output, "unknown command 'statc'; did you mean 'static'?")) << r.output;
}

TEST(unknown_arguments, a_misspelled_subcommand_is_named_with_the_closest_subcommand_of_its_command) {
  const command_result r = run_counterguard("baseline updte cases/");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(
      mentions(r.output, "unknown command 'updte' of 'counterguard baseline'; did you mean 'update'?"))
      << r.output;
}

TEST(unknown_arguments, a_command_with_no_close_name_lists_the_commands) {
  const command_result r = run_counterguard("baseline frobnicate");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(mentions(r.output, "unknown command 'frobnicate' of 'counterguard baseline'; commands: "))
      << r.output;
  EXPECT_TRUE(mentions(r.output, "update")) << r.output;
}

TEST(unknown_arguments, a_misspelled_option_is_named_with_the_closest_option_of_its_command) {
  const command_result r = run_counterguard("static cases/ --jsn out.json");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(mentions(r.output, "unknown option '--jsn' of 'counterguard static'; did you mean '--json'?"))
      << r.output;
}

TEST(unknown_arguments, an_option_given_with_its_value_is_named_without_the_value) {
  const command_result r = run_counterguard("run cases/ --requre-gpu --filtr=x");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(mentions(r.output,
                       "unknown option '--requre-gpu' of 'counterguard run'; did you mean "
                       "'--require-gpu'?"))
      << r.output;
}

TEST(unknown_arguments, a_missing_value_keeps_the_parsers_own_message) {
  const command_result r = run_counterguard("static cases/ --json");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_FALSE(mentions(r.output, "unknown")) << r.output;
  EXPECT_TRUE(mentions(r.output, "--json")) << r.output;
}

TEST(unknown_arguments, a_misspelled_schema_name_is_named_with_the_closest_schema) {
  const command_result r = run_counterguard("schema suit");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(mentions(r.output, "no schema named 'suit'; did you mean 'suite'?")) << r.output;
}

}  // namespace
}  // namespace counterguard::test
