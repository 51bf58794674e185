// SPDX-License-Identifier: Apache-2.0
// The GitLab Code Quality report of a run's findings (reporters/gitlab_code_quality.hpp).
#include "counterguard/reporters/gitlab_code_quality.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "findings_test_support.hpp"

namespace counterguard {
namespace {

nlohmann::json sample_report(const test::sample_repository& repository) {
  return nlohmann::json::parse(render_gitlab_code_quality(collect_findings(
      judge_run(test::blamed_run_in(repository), false), repository_paths(repository.root()))));
}

TEST(gitlab_code_quality, each_placed_finding_is_one_entry_with_the_fields_gitlab_reads) {
  const test::sample_repository repository;
  const nlohmann::json report = sample_report(repository);
  ASSERT_TRUE(report.is_array());
  ASSERT_EQ(report.size(), 3U);  // the errored case has no place: left out
  const nlohmann::json& first = report[0];
  EXPECT_EQ(first["location"]["path"], "kernels/transpose.cu");
  EXPECT_EQ(first["location"]["lines"]["begin"], 34);
  EXPECT_EQ(first["check_name"], "counterguard/expectation");
  EXPECT_EQ(first["severity"], "major");
  EXPECT_EQ(first["fingerprint"].get<std::string>().size(), 64U);
  const std::string description = first["description"];
  EXPECT_NE(description.find("shared_store_bank_conflicts: expected == 0, measured 4063232; source line: "
                             "transpose.cu:34  STS [R7], R8"),
            std::string::npos)
      << description;
  EXPECT_EQ(description.find('\n'), std::string::npos);
}

TEST(gitlab_code_quality, the_suite_lines_follow_with_a_regression_named_as_such) {
  const test::sample_repository repository;
  const nlohmann::json report = sample_report(repository);
  ASSERT_EQ(report.size(), 3U);
  EXPECT_EQ(report[1]["location"]["path"], "tests/transpose.yaml");
  EXPECT_EQ(report[1]["location"]["lines"]["begin"], 12);
  EXPECT_EQ(report[2]["location"]["lines"]["begin"], 9);
  EXPECT_EQ(report[2]["check_name"], "counterguard/regression");
}

TEST(gitlab_code_quality, a_run_without_findings_is_an_empty_array) {
  EXPECT_EQ(nlohmann::json::parse(render_gitlab_code_quality({})), nlohmann::json::array());
}

}  // namespace
}  // namespace counterguard
