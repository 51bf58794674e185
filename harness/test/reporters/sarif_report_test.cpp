// SPDX-License-Identifier: Apache-2.0
// SARIF 2.1.0 of a run's findings (reporters/sarif_report.hpp), as GitHub code scanning uploads it.
#include "counterguard/reporters/sarif_report.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "findings_test_support.hpp"

namespace counterguard {
namespace {

nlohmann::json sample_sarif(const test::sample_repository& repository) {
  return nlohmann::json::parse(
      render_sarif_report(collect_findings(judge_run(test::blamed_run_in(repository), false),
                                           repository_paths(repository.root())),
                          "0.3.0"));
}

TEST(sarif_report, is_one_run_of_counterguard_with_its_version_and_rules) {
  const test::sample_repository repository;
  const nlohmann::json sarif = sample_sarif(repository);
  EXPECT_EQ(sarif["version"], "2.1.0");
  ASSERT_EQ(sarif["runs"].size(), 1U);
  const nlohmann::json& driver = sarif["runs"][0]["tool"]["driver"];
  EXPECT_EQ(driver["name"], "counterguard");
  EXPECT_EQ(driver["version"], "0.3.0");
  std::vector<std::string> ids;
  for (const auto& rule : driver["rules"])
    ids.push_back(rule["id"]);
  for (const auto& result : sarif["runs"][0]["results"])
    EXPECT_NE(std::find(ids.begin(), ids.end(), result["ruleId"]), ids.end()) << result["ruleId"];
}

TEST(sarif_report, each_placed_finding_is_an_error_at_its_repository_path_and_line) {
  const test::sample_repository repository;
  const nlohmann::json results = sample_sarif(repository)["runs"][0]["results"];
  ASSERT_EQ(results.size(), 3U);
  const nlohmann::json& location = results[0]["locations"][0]["physicalLocation"];
  EXPECT_EQ(location["artifactLocation"]["uri"], "kernels/transpose.cu");
  EXPECT_EQ(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
  EXPECT_EQ(location["region"]["startLine"], 34);
  EXPECT_EQ(results[0]["level"], "error");
  EXPECT_EQ(results[0]["partialFingerprints"]["counterguardFinding/v1"].get<std::string>().size(), 64U);
  EXPECT_NE(results[0]["message"]["text"].get<std::string>().find("STS [R7], R8"), std::string::npos);
}

}  // namespace
}  // namespace counterguard
