// SPDX-License-Identifier: Apache-2.0
// The findings of a run (reporters/findings.hpp): its failing checks placed on blamed source lines and
// suite lines of the repository, computed once for the annotation, Code Quality and SARIF reports.
#include "counterguard/reporters/findings.hpp"

#include <gtest/gtest.h>

#include <set>

#include "findings_test_support.hpp"

namespace counterguard {
namespace {

std::vector<finding> findings_of(const run_results& results, const test::sample_repository& repository,
                                 bool strict = false) {
  return collect_findings(judge_run(results, strict), repository_paths(repository.root()));
}

TEST(findings, a_blamed_failing_check_is_found_on_its_source_line_relative_to_the_repository) {
  const test::sample_repository repository;
  const auto findings = findings_of(test::blamed_run_in(repository), repository);
  ASSERT_FALSE(findings.empty());
  const finding& first = findings.front();
  EXPECT_EQ(first.kind, finding_kind::source_line);
  ASSERT_TRUE(first.place.has_value());
  EXPECT_EQ(first.place->path, "kernels/transpose.cu");
  EXPECT_EQ(first.place->line, 34);
  EXPECT_EQ(first.metric, "shared_store_bank_conflicts");
  EXPECT_EQ(first.sass, "STS [R7], R8");
  EXPECT_NE(first.blamed.find("shared excess wavefronts 0 -> 4063232"), std::string::npos) << first.blamed;
}

TEST(findings, every_failing_check_is_found_on_the_yaml_line_of_its_expectation) {
  const test::sample_repository repository;
  const auto findings = findings_of(test::blamed_run_in(repository), repository);
  std::vector<std::string> at_yaml;
  for (const auto& f : findings) {
    if (f.kind == finding_kind::expectation && f.place)
      at_yaml.push_back(f.metric + " " + f.place->path + ":" + std::to_string(f.place->line));
  }
  // The baseline check has no expectation of its own: the case's definition.
  EXPECT_EQ(at_yaml, (std::vector<std::string>{"shared_store_bank_conflicts tests/transpose.yaml:12",
                                               "duration_ns tests/transpose.yaml:9"}));
}

TEST(findings, source_line_findings_come_before_the_suite_line_ones) {
  const test::sample_repository repository;
  const auto findings = findings_of(test::blamed_run_in(repository), repository);
  ASSERT_GE(findings.size(), 3U);
  EXPECT_EQ(findings[0].kind, finding_kind::source_line);
  for (std::size_t i = 1; i < findings.size(); ++i)
    EXPECT_EQ(findings[i].kind, finding_kind::expectation) << i;
}

TEST(findings, a_failing_check_whose_metric_was_not_blamed_has_no_source_line_finding) {
  const test::sample_repository repository;
  const auto findings = findings_of(test::blamed_run_in(repository), repository);
  for (const auto& f : findings) {
    if (f.metric == "duration_ns") {
      EXPECT_EQ(f.kind, finding_kind::expectation);
    }
  }
}

TEST(findings, passing_and_skipped_cases_give_none_and_an_errored_case_gives_one_without_a_place) {
  const test::sample_repository repository;
  const auto findings = findings_of(test::blamed_run_in(repository), repository);
  std::set<std::string> instances;
  for (const auto& f : findings)
    instances.insert(f.instance);
  EXPECT_EQ(instances, (std::set<std::string>{"transpose/naive?n=2048", "atomics/hist<\"x\">"}));
  const finding& errored = findings.back();
  EXPECT_EQ(errored.instance, "atomics/hist<\"x\">");
  EXPECT_TRUE(errored.metric.empty());
  EXPECT_FALSE(errored.place.has_value());  // the results do not say where the case is defined
  EXPECT_NE(errored.message.find("illegal address"), std::string::npos) << errored.message;
}

TEST(findings, an_improvement_is_a_finding_only_under_strict) {
  const test::sample_repository repository;
  run_results results = test::blamed_run_in(repository);
  results.cases[0].checks.push_back(
      test::make_check("global_load_sectors", "100 (exact)", 50, check_verdict::improvement, false, 100.0));
  const auto count = [&](bool strict) {
    std::size_t n = 0;
    for (const auto& f : findings_of(results, repository, strict))
      n += f.verdict == check_verdict::improvement ? 1 : 0;
    return n;
  };
  EXPECT_EQ(count(false), 0U);
  EXPECT_EQ(count(true), 1U);
}

TEST(findings, fingerprints_are_unique_in_a_run_and_the_same_in_the_next) {
  const test::sample_repository repository;
  const auto first = findings_of(test::blamed_run_in(repository), repository);
  const auto again = findings_of(test::blamed_run_in(repository), repository);
  std::set<std::string> unique;
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].fingerprint.size(), 64U);
    EXPECT_EQ(first[i].fingerprint, again[i].fingerprint);
    unique.insert(first[i].fingerprint);
  }
  EXPECT_EQ(unique.size(), first.size());
}

TEST(findings, a_blamed_line_outside_the_repository_gives_no_source_line_finding) {
  const test::sample_repository repository;
  run_results results = test::blamed_run_in(repository);
  results.cases[1].blame->lines.front().file = "/usr/include/cub/block/block_reduce.cuh";
  const auto findings = findings_of(results, repository);
  ASSERT_FALSE(findings.empty());
  for (const auto& f : findings)
    EXPECT_NE(f.kind, finding_kind::source_line);
  EXPECT_EQ(findings.front().metric, "shared_store_bank_conflicts");  // still on its suite line
}

TEST(findings, a_line_only_the_per_line_baseline_has_is_not_pointed_at) {
  const test::sample_repository repository;
  run_results results = test::blamed_run_in(repository);
  results.cases[1].blame->lines.front().sass = "(no instruction now)";
  for (const auto& f : findings_of(results, repository))
    EXPECT_NE(f.kind, finding_kind::source_line);
}

TEST(finding_text, title_and_description_carry_metric_expected_measured_and_instruction) {
  const test::sample_repository repository;
  const finding f = findings_of(test::blamed_run_in(repository), repository).front();
  EXPECT_EQ(finding_title(f),
            "counterguard: shared_store_bank_conflicts failed its expectation in transpose/naive?n=2048");
  const std::string text = finding_description(f);
  EXPECT_NE(text.find("shared_store_bank_conflicts: expected == 0, measured 4063232"), std::string::npos)
      << text;
  EXPECT_NE(text.find("STS [R7], R8"), std::string::npos) << text;
  EXPECT_EQ(finding_rule(f), "counterguard/expectation");
}

}  // namespace
}  // namespace counterguard
