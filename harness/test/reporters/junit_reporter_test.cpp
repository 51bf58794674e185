// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/junit_reporter.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"

namespace counterguard {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

TEST(xml_escape, escapes_markup_characters) {
  EXPECT_EQ(xml_escape(R"(a<b & "c" 'd'>)"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
}

TEST(xml_escape, keeps_line_breaks_as_character_references) {
  EXPECT_EQ(xml_escape("a\nb\tc"), "a&#10;b&#9;c");
}

TEST(xml_escape, replaces_control_characters_xml_forbids) {
  EXPECT_EQ(xml_escape(std::string("a\x01"
                                   "b\x1b",
                                   4)),
            "a?b?");
}

TEST(xml_escape, passes_utf8_through) {
  EXPECT_EQ(xml_escape("±5%"), "±5%");
}

TEST(junit_report, has_one_testcase_per_instance_with_suite_as_classname) {
  const std::string xml = render_junit_report(judge_run(test::sample_run(), false));
  EXPECT_EQ(count(xml, "<testcase "), 4U);
  EXPECT_NE(xml.find(R"(<testcase classname="transpose" name="transpose/naive?n=2048" time="0.250">)"),
            std::string::npos)
      << xml;
}

TEST(junit_report, groups_cases_in_one_testsuite_per_suite_with_counts) {
  const std::string xml = render_junit_report(judge_run(test::sample_run(), false));
  EXPECT_EQ(count(xml, "<testsuite "), 3U);
  EXPECT_NE(
      xml.find(R"(<testsuite name="transpose" tests="2" failures="1" errors="0" skipped="0" time="0.750" )"),
      std::string::npos)
      << xml;
  EXPECT_NE(xml.find(R"(<testsuites name="counterguard" tests="4" failures="1" errors="1" skipped="1")"),
            std::string::npos);
}

TEST(junit_report, a_failing_case_has_one_failure_naming_metric_expected_and_measured) {
  const std::string xml = render_junit_report(judge_run(test::sample_run(), false));
  EXPECT_EQ(count(xml, "<failure "), 1U);
  EXPECT_NE(
      xml.find(
          R"x(<failure message="shared_store_bank_conflicts: expected == 0, measured 4063232 (+1 more)" )x"
          R"x(type="fail">)x"),
      std::string::npos)
      << xml;
}

TEST(junit_report, a_skip_and_an_error_carry_their_escaped_reasons) {
  const std::string xml = render_junit_report(judge_run(test::sample_run(), false));
  EXPECT_NE(xml.find(R"(<skipped message="needs clusters &amp; sm_90"/>)"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"x(<error message="illegal address &lt;at 0x10&gt;" type="error"/>)x"),
            std::string::npos);
  EXPECT_NE(xml.find(R"(name="atomics/hist&lt;&quot;x&quot;&gt;")"), std::string::npos);
}

TEST(junit_report, a_wrong_output_is_a_failure_of_its_own_type) {
  run_results results = test::sample_run();
  results.cases[0].verified = false;
  results.cases[0].verification_message = "out[1] = 2";
  const std::string xml = render_junit_report(judge_run(results, false));
  EXPECT_NE(xml.find(R"x(<failure message="wrong output: out[1] = 2" type="wrong_output">)x"),
            std::string::npos)
      << xml;
}

TEST(junit_report, an_improvement_fails_only_when_strict) {
  run_results results;
  case_result c;
  c.instance = "s/c";
  c.suite = "s";
  c.checks.push_back(test::make_check("m", "10 (exact)", 5, check_verdict::improvement, false, 10.0));
  results.cases.push_back(c);
  EXPECT_EQ(count(render_junit_report(judge_run(results, false)), "<failure "), 0U);
  EXPECT_EQ(count(render_junit_report(judge_run(results, true)), "<failure "), 1U);
}

TEST(junit_report, a_failed_case_points_at_its_first_failing_expectation) {
  run_results results = test::sample_run();
  results.cases[1].source = source_location{"cases/transpose.yaml", 20, 5};
  results.cases[1].checks[0].source = source_location{"cases/transpose.yaml", 27, 9};
  const std::string xml = render_junit_report(judge_run(results, false));
  EXPECT_NE(xml.find(R"(name="transpose/naive?n=2048" time="0.250" file="cases/transpose.yaml" line="27">)"),
            std::string::npos)
      << xml;
}

TEST(junit_report, a_failed_case_whose_failing_checks_have_no_source_points_at_its_definition) {
  run_results results = test::sample_run();
  results.cases[1].source = source_location{"cases/transpose.yaml", 20, 5};
  const std::string xml = render_junit_report(judge_run(results, false));
  EXPECT_NE(xml.find(R"(name="transpose/naive?n=2048" time="0.250" file="cases/transpose.yaml" line="20">)"),
            std::string::npos)
      << xml;
}

TEST(junit_report, a_baseline_regression_points_at_the_expectation_of_the_same_metric) {
  run_results results;
  case_result c;
  c.instance = "t/a";
  c.suite = "t";
  c.source = source_location{"cases/t.yaml", 3, 5};
  c.checks.push_back(test::make_check("other", "== 0", 0, check_verdict::pass, false));
  c.checks.back().source = source_location{"cases/t.yaml", 6, 7};
  c.checks.push_back(test::make_check("sectors", "== 4", 4, check_verdict::pass, false));
  c.checks.back().source = source_location{"cases/t.yaml", 7, 7};
  c.checks.push_back(test::make_check("sectors", "4 (exact)", 5, check_verdict::regression, true, 4.0));
  results.cases.push_back(c);
  const std::string xml = render_junit_report(judge_run(results, false));
  EXPECT_NE(xml.find(R"(name="t/a" time="0.000" file="cases/t.yaml" line="7">)"), std::string::npos) << xml;
}

TEST(junit_report, a_passing_case_points_at_its_definition_not_at_a_passing_check) {
  run_results results = test::sample_run();
  results.cases[0].source = source_location{"cases/transpose.yaml", 8, 5};
  results.cases[0].checks[0].source = source_location{"cases/transpose.yaml", 14, 9};
  const std::string xml = render_junit_report(judge_run(results, false));
  EXPECT_NE(
      xml.find(R"(name="transpose/smem?pad=1,n=2048" time="0.500" file="cases/transpose.yaml" line="8">)"),
      std::string::npos)
      << xml;
}

TEST(junit_report, a_case_without_a_source_has_no_file_attribute) {
  const std::string xml = render_junit_report(judge_run(test::sample_run(), false));
  EXPECT_EQ(xml.find(" file=\""), std::string::npos);
}

TEST(junit_report, every_testsuite_has_timestamp_hostname_and_properties) {
  run_results results = test::sample_run();
  results.metadata.started_at = "2026-11-30T03:22:42Z";
  results.metadata.hostname = "gpu-runner-7";
  results.metadata.device.driver_version = "580.159.04";
  results.metadata.device.cuda_runtime_version = "13.0";
  results.metadata.device.cupti_version = "130001";
  results.metadata.git_commit = "6955cc2194e6859188c19fb57c589d1f2213125b";
  const std::string xml = render_junit_report(judge_run(results, false));
  EXPECT_EQ(count(xml, R"( timestamp="2026-11-30T03:22:42" hostname="gpu-runner-7">)"), 3U) << xml;
  EXPECT_EQ(count(xml, "<properties>"), 3U);
  EXPECT_EQ(count(xml, "</properties>"), 3U);
  for (const char* property :
       {R"(<property name="gpu_key" value="GH100-132sm-cuda13"/>)",
        R"(<property name="gpu_name" value="NVIDIA H200"/>)",
        R"(<property name="driver_version" value="580.159.04"/>)",
        R"(<property name="cuda_runtime_version" value="13.0"/>)",
        R"(<property name="cupti_version" value="130001"/>)",
        R"(<property name="git_commit" value="6955cc2194e6859188c19fb57c589d1f2213125b"/>)"}) {
    EXPECT_EQ(count(xml, property), 3U) << property;
  }
  // <properties> comes first in a <testsuite>, before the test cases.
  EXPECT_LT(xml.find("</properties>"), xml.find("<testcase "));
}

TEST(junit_report, an_unrecorded_hostname_reads_unknown) {
  EXPECT_NE(render_junit_report(judge_run(test::sample_run(), false)).find(R"( hostname="unknown">)"),
            std::string::npos);
}

TEST(junit_report, opens_and_closes_every_element) {
  const std::string xml = render_junit_report(judge_run(test::sample_run(), false));
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0), 0U);
  EXPECT_EQ(count(xml, "<testsuite "), count(xml, "</testsuite>"));
  EXPECT_EQ(count(xml, "<failure "), count(xml, "</failure>"));
  EXPECT_EQ(count(xml, "<system-out>"), count(xml, "</system-out>"));
  EXPECT_EQ(count(xml, "<testcase "), count(xml, "</testcase>") + count(xml, "\"/>\n    <testcase") +
                                          count(xml, "\"/>\n  </testsuite>"));
}

}  // namespace
}  // namespace counterguard

namespace counterguard {
namespace {

TEST(junit_report, a_blamed_failure_names_its_source_lines) {
  const std::string xml = render_junit_report(judge_run(test::sample_run_with_blame(), false));
  const auto failure = xml.find("<failure");
  ASSERT_NE(failure, std::string::npos);
  const auto lines = xml.find(
      "source lines:&#10;  transpose.cu:34  STS [R7], R8  shared excess wavefronts 0 -&gt; 4063232", failure);
  EXPECT_NE(lines, std::string::npos) << xml;
  EXPECT_LT(lines, xml.find("</failure>", failure));
}

TEST(junit_report, of_a_run_that_profiled_nothing_carries_static_checks_only_as_a_property) {
  const std::string xml = render_junit_report(judge_run(test::static_only_run(), false));
  EXPECT_NE(xml.find("<property name=\"static_checks_only\" value=\"static checks only: 5 counter checks not "
                     "run: no GPU\"/>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("not run: 5 counter check(s)"), std::string::npos) << xml;
}

}  // namespace
}  // namespace counterguard
