// SPDX-License-Identifier: Apache-2.0
// GitHub Actions workflow commands for a run's findings (reporters/github_annotations.hpp).
#include "counterguard/reporters/github_annotations.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "findings_test_support.hpp"

namespace counterguard {
namespace {

std::vector<std::string> annotation_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

std::vector<finding> sample_findings(const test::sample_repository& repository) {
  return collect_findings(judge_run(test::blamed_run_in(repository), false),
                          repository_paths(repository.root()));
}

TEST(github_annotations, a_blamed_check_is_an_error_on_its_source_line_with_its_values_and_instruction) {
  const test::sample_repository repository;
  const auto lines = annotation_lines(render_github_annotations(sample_findings(repository), 10, ""));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].rfind("::error file=kernels/transpose.cu,line=34,title=counterguard%3A "
                           "shared_store_bank_conflicts failed its expectation in transpose/naive?n=2048::",
                           0),
            0U)
      << lines[0];
  EXPECT_NE(lines[0].find("expected == 0, measured 4063232%0Asource line: transpose.cu:34  STS [R7], R8"),
            std::string::npos)
      << lines[0];
}

TEST(github_annotations, each_failing_check_is_also_an_error_on_its_suite_line) {
  const test::sample_repository repository;
  const auto lines = annotation_lines(render_github_annotations(sample_findings(repository), 10, ""));
  ASSERT_EQ(lines.size(), 4U);
  EXPECT_EQ(lines[1].rfind("::error file=tests/transpose.yaml,line=12,title=", 0), 0U) << lines[1];
  EXPECT_EQ(lines[2].rfind("::error file=tests/transpose.yaml,line=9,title=counterguard%3A duration_ns "
                           "regressed in transpose/naive?n=2048::",
                           0),
            0U)
      << lines[2];
  // The errored case has no place: an annotation of the run, without file and line.
  EXPECT_EQ(lines[3].rfind("::error title=counterguard%3A atomics/hist<\"x\"> failed::", 0), 0U) << lines[3];
}

TEST(github_annotations, over_the_limit_the_last_annotation_says_how_many_more_and_the_log_lists_them) {
  const test::sample_repository repository;
  const auto lines =
      annotation_lines(render_github_annotations(sample_findings(repository), 2, "out/report.html"));
  ASSERT_EQ(lines.size(), 5U);
  EXPECT_EQ(lines[0].rfind("::error file=kernels/transpose.cu,line=34,", 0), 0U);
  EXPECT_EQ(
      lines[1],
      "::error title=counterguard%3A 3 more findings::3 of 4 findings are not annotated (GitHub shows 2 "
      "error annotations per step); every one is listed in the log below and in out/report.html");
  EXPECT_EQ(lines[2],
            "counterguard: not annotated: tests/transpose.yaml:12: counterguard: shared_store_bank_conflicts "
            "failed its expectation in transpose/naive?n=2048");
  EXPECT_EQ(lines[4].rfind("counterguard: not annotated: counterguard: atomics/hist", 0), 0U) << lines[4];
}

TEST(github_annotations, limit_zero_annotates_every_finding) {
  const test::sample_repository repository;
  EXPECT_EQ(annotation_lines(render_github_annotations(sample_findings(repository), 0, "")).size(), 4U);
}

TEST(github_annotations, a_passing_run_writes_nothing) {
  const test::sample_repository repository;
  run_results results = test::blamed_run_in(repository);
  results.cases.erase(results.cases.begin() + 1, results.cases.end());
  EXPECT_EQ(render_github_annotations(
                collect_findings(judge_run(results, false), repository_paths(repository.root())), 10, ""),
            "");
}

TEST(workflow_command_escaping, messages_escape_percent_and_line_breaks_properties_also_colon_and_comma) {
  EXPECT_EQ(escape_command_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
  EXPECT_EQ(escape_command_property("50% a\nb: c, d"), "50%25 a%0Ab%3A c%2C d");
}

}  // namespace
}  // namespace counterguard
