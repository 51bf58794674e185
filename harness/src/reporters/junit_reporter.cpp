#include "counterguard/reporters/junit_reporter.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <vector>

#include "counterguard/checker/run_verdict.hpp"
#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/value_format.hpp"
#include "counterguard/reporters/run_summary.hpp"

namespace counterguard {
namespace {

std::string seconds_text(double seconds) {
  return fmt::format("{:.3f}", std::isfinite(seconds) ? seconds : 0.0);
}

// "metric: expected X, measured Y" (with the kernel when the check is per kernel).
std::string failure_message(const check_outcome& check) {
  std::string text = check.metric;
  if (!check.kernel.empty())
    text += " [" + check.kernel + "]";
  text += ": expected " + check.expected + ", measured " +
          (check.measured ? format_value(*check.measured) : "nothing");
  return text;
}

struct suite_counts {
  std::vector<const case_result*> cases;
  std::size_t failures = 0;
  std::size_t errors = 0;
  std::size_t skipped = 0;
  double seconds = 0.0;
};

std::string counts_attributes(std::size_t tests, std::size_t failures, std::size_t errors,
                              std::size_t skipped, double seconds) {
  return fmt::format(R"(tests="{}" failures="{}" errors="{}" skipped="{}" time="{}")", tests, failures,
                     errors, skipped, seconds_text(seconds));
}

void render_case(std::string& xml, const case_result& result, bool strict) {
  xml += "    <testcase classname=\"" + xml_escape(result.suite) + "\" name=\"" +
         xml_escape(result.instance) + "\" time=\"" + seconds_text(result.seconds) + "\"";
  std::string body;
  switch (outcome_of(result, strict)) {
    case case_outcome::error:
      body += "      <error message=\"" + xml_escape(result.status_reason) + "\" type=\"error\"/>\n";
      break;
    case case_outcome::skipped:
      body += "      <skipped message=\"" + xml_escape(result.status_reason) + "\"/>\n";
      break;
    case case_outcome::failed: {
      std::vector<const check_outcome*> failing;
      for (const auto& check : result.checks) {
        if (is_failing(check, strict))
          failing.push_back(&check);
      }
      std::string message;
      std::string type;
      std::string details;
      if (result.verified && !*result.verified) {
        message = "wrong output: " + result.verification_message;
        type = "wrong_output";
        details += message + "\n";
      }
      for (const auto* check : failing) {
        if (message.empty()) {
          message = failure_message(*check);
          type = to_string(check->verdict);
        }
        details += check->message + "\n";
      }
      if (message.empty()) {
        message = result.status_reason.empty() ? "failed" : result.status_reason;
        type = "failed";
        details += message + "\n";
      }
      const std::size_t problems = failing.size() + (result.verified && !*result.verified ? 1 : 0);
      if (problems > 1)
        message += " (+" + std::to_string(problems - 1) + " more)";
      body += "      <failure message=\"" + xml_escape(message) + "\" type=\"" + xml_escape(type) + "\">" +
              xml_escape(details) + "</failure>\n";
      break;
    }
    case case_outcome::passed:
      break;
  }
  if (!result.checks.empty()) {
    std::string out;
    for (const auto& check : result.checks)
      out += std::string(to_string(check.verdict)) + ": " + check.message + "\n";
    body += "      <system-out>" + xml_escape(out) + "</system-out>\n";
  }
  if (body.empty()) {
    xml += "/>\n";
  } else {
    xml += ">\n" + body + "    </testcase>\n";
  }
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&apos;";
        break;
      case '\t':
        escaped += "&#9;";
        break;
      case '\n':
        escaped += "&#10;";
        break;
      case '\r':
        escaped += "&#13;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          escaped += '?';
        } else {
          escaped += c;
        }
    }
  }
  return escaped;
}

std::string render_junit_report(const run_results& results, bool strict) {
  std::map<std::string, suite_counts> suites;  // by name: a stable order
  for (const auto& result : results.cases) {
    suite_counts& suite = suites[result.suite];
    suite.cases.push_back(&result);
    suite.seconds += std::isfinite(result.seconds) ? result.seconds : 0.0;
    switch (outcome_of(result, strict)) {
      case case_outcome::failed:
        ++suite.failures;
        break;
      case case_outcome::error:
        ++suite.errors;
        break;
      case case_outcome::skipped:
        ++suite.skipped;
        break;
      case case_outcome::passed:
        break;
    }
  }
  const run_summary total = summarize(results, strict);
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites name=\"counterguard\" " +
         counts_attributes(total.cases, total.failed, total.errors, total.skipped,
                           std::isfinite(total.seconds) ? total.seconds : 0.0) +
         ">\n";
  for (const auto& [name, suite] : suites) {
    xml += "  <testsuite name=\"" + xml_escape(name) + "\" " +
           counts_attributes(suite.cases.size(), suite.failures, suite.errors, suite.skipped, suite.seconds) +
           ">\n";
    for (const auto* result : suite.cases)
      render_case(xml, *result, strict);
    xml += "  </testsuite>\n";
  }
  xml += "</testsuites>\n";
  return xml;
}

void write_junit_report(const std::string& path, const run_results& results, bool strict) {
  write_file_atomically(path, render_junit_report(results, strict));
}

}  // namespace counterguard
