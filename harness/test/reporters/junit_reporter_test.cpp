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
  const std::string xml = render_junit_report(test::sample_run(), false);
  EXPECT_EQ(count(xml, "<testcase "), 4U);
  EXPECT_NE(xml.find(R"(<testcase classname="transpose" name="transpose/naive?n=2048" time="0.250">)"),
            std::string::npos)
      << xml;
}

TEST(junit_report, groups_cases_in_one_testsuite_per_suite_with_counts) {
  const std::string xml = render_junit_report(test::sample_run(), false);
  EXPECT_EQ(count(xml, "<testsuite "), 3U);
  EXPECT_NE(
      xml.find(R"(<testsuite name="transpose" tests="2" failures="1" errors="0" skipped="0" time="0.750">)"),
      std::string::npos)
      << xml;
  EXPECT_NE(xml.find(R"(<testsuites name="counterguard" tests="4" failures="1" errors="1" skipped="1")"),
            std::string::npos);
}

TEST(junit_report, a_failing_case_has_one_failure_naming_metric_expected_and_measured) {
  const std::string xml = render_junit_report(test::sample_run(), false);
  EXPECT_EQ(count(xml, "<failure "), 1U);
  EXPECT_NE(
      xml.find(
          R"x(<failure message="shared_store_bank_conflicts: expected == 0, measured 4063232 (+1 more)" )x"
          R"x(type="fail">)x"),
      std::string::npos)
      << xml;
}

TEST(junit_report, a_skip_and_an_error_carry_their_escaped_reasons) {
  const std::string xml = render_junit_report(test::sample_run(), false);
  EXPECT_NE(xml.find(R"(<skipped message="needs clusters &amp; sm_90"/>)"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"x(<error message="illegal address &lt;at 0x10&gt;" type="error"/>)x"),
            std::string::npos);
  EXPECT_NE(xml.find(R"(name="atomics/hist&lt;&quot;x&quot;&gt;")"), std::string::npos);
}

TEST(junit_report, a_wrong_output_is_a_failure_of_its_own_type) {
  run_results results = test::sample_run();
  results.cases[0].verified = false;
  results.cases[0].verification_message = "out[1] = 2";
  const std::string xml = render_junit_report(results, false);
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
  EXPECT_EQ(count(render_junit_report(results, false), "<failure "), 0U);
  EXPECT_EQ(count(render_junit_report(results, true), "<failure "), 1U);
}

TEST(junit_report, opens_and_closes_every_element) {
  const std::string xml = render_junit_report(test::sample_run(), false);
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0), 0U);
  EXPECT_EQ(count(xml, "<testsuite "), count(xml, "</testsuite>"));
  EXPECT_EQ(count(xml, "<failure "), count(xml, "</failure>"));
  EXPECT_EQ(count(xml, "<system-out>"), count(xml, "</system-out>"));
  EXPECT_EQ(count(xml, "<testcase "), count(xml, "</testcase>") + count(xml, "\"/>\n    <testcase") +
                                          count(xml, "\"/>\n  </testsuite>"));
}

}  // namespace
}  // namespace counterguard
