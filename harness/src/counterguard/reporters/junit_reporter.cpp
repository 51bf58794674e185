// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/junit_reporter.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <vector>

#include "counterguard/core/atomic_file.hpp"

namespace counterguard {
namespace {

std::string seconds_text(double seconds) {
  return fmt::format("{:.3f}", std::isfinite(seconds) ? seconds : 0.0);
}

// "metric: expected X, measured Y" (with the kernel when the check is per kernel).
std::string failure_message(const check_outcome& check, const shown_check& shown) {
  return shown.metric + ": expected " + check.expected + ", measured " +
         (shown.measured_in_full.empty() ? "nothing" : shown.measured_in_full);
}

struct suite_counts {
  std::vector<std::size_t> cases;  // positions in the results
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

// Where a CI system should point for this case: the first failing check's YAML expectation, else the
// case's own definition; nothing when the results do not say (files written before they carried it).
const source_location* case_source(const case_result& result, case_status status, const shown_case& shown) {
  if (status == case_status::failed) {
    for (const auto& check : shown.checks) {
      if (!check.failing)
        continue;
      if (check.suite_line)
        return &*check.suite_line;
      break;  // the first failing check has no expectation of its own: the case's definition
    }
  }
  return result.source ? &*result.source : nullptr;
}

std::string source_attributes(const source_location* where) {
  if (where == nullptr || where->file.empty())
    return {};
  std::string text = " file=\"" + xml_escape(where->file) + "\"";
  if (where->line > 0)
    text += " line=\"" + std::to_string(where->line) + "\"";
  return text;
}

// JUnit's timestamp is an ISO 8601 date and time without a zone (the Ant schema); started_at is UTC.
std::string junit_timestamp(const std::string& started_at) {
  if (!started_at.empty() && started_at.back() == 'Z')
    return started_at.substr(0, started_at.size() - 1);
  return started_at;
}

// The attributes and <properties> every <testsuite> of the run shares.
struct suite_context {
  std::string attributes;
  std::string properties;
};

suite_context make_suite_context(const run_metadata& metadata, const std::string& static_checks_only) {
  suite_context context;
  context.attributes = " timestamp=\"" + xml_escape(junit_timestamp(metadata.started_at)) + "\" hostname=\"" +
                       xml_escape(metadata.hostname.empty() ? "unknown" : metadata.hostname) + "\"";
  const std::pair<const char*, const std::string*> properties[] = {
      {"gpu_key", &metadata.gpu_key},
      {"gpu_name", &metadata.device.name},
      {"driver_version", &metadata.device.driver_version},
      {"cuda_runtime_version", &metadata.device.cuda_runtime_version},
      {"cupti_version", &metadata.device.cupti_version},
      {"git_commit", &metadata.git_commit}};
  context.properties = "    <properties>\n";
  for (const auto& [name, value] : properties) {
    context.properties +=
        std::string("      <property name=\"") + name + "\" value=\"" + xml_escape(*value) + "\"/>\n";
  }
  if (!static_checks_only.empty()) {
    context.properties +=
        "      <property name=\"static_checks_only\" value=\"" + xml_escape(static_checks_only) + "\"/>\n";
  }
  context.properties += "    </properties>\n";
  return context;
}

void render_case(std::string& xml, const judged_run& run, std::size_t position) {
  const case_result& result = run.results.cases[position];
  const case_status status = run.statuses[position];
  const shown_case& shown = run.shown[position];
  xml += "    <testcase classname=\"" + xml_escape(result.suite) + "\" name=\"" +
         xml_escape(result.instance) + "\" time=\"" + seconds_text(result.seconds) + "\"" +
         source_attributes(case_source(result, status, shown));
  std::string body;
  switch (status) {
    case case_status::error:
      body += "      <error message=\"" + xml_escape(result.status_reason) + "\" type=\"error\"/>\n";
      break;
    case case_status::skipped:
      body += "      <skipped message=\"" + xml_escape(result.status_reason) + "\"/>\n";
      break;
    case case_status::failed: {
      std::vector<std::size_t> failing;  // positions in result.checks
      for (std::size_t i = 0; i < shown.checks.size(); ++i) {
        if (shown.checks[i].failing)
          failing.push_back(i);
      }
      std::string message;
      std::string type;
      std::string details;
      if (result.verified && !*result.verified) {
        message = "wrong output: " + result.verification_message;
        type = "wrong_output";
        details += message + "\n";
      }
      for (const std::size_t i : failing) {
        if (message.empty()) {
          message = failure_message(result.checks[i], shown.checks[i]);
          type = shown.checks[i].verdict_name;
        }
        details += result.checks[i].message + "\n";
      }
      if (message.empty()) {
        message = result.status_reason.empty() ? "failed" : result.status_reason;
        type = "failed";
        details += message + "\n";
      }
      if (result.blame) {
        // The failure text CI shows first: where the regressed counters come from.
        details += "source lines:\n";
        if (!result.blame->note.empty())
          details += "  " + result.blame->note + "\n";
        for (const auto& line : shown.blame_lines)
          details += "  " + line.described + "\n";
      }
      const std::size_t problems = failing.size() + (result.verified && !*result.verified ? 1 : 0);
      if (problems > 1)
        message += " (+" + std::to_string(problems - 1) + " more)";
      body += "      <failure message=\"" + xml_escape(message) + "\" type=\"" + xml_escape(type) + "\">" +
              xml_escape(details) + "</failure>\n";
      break;
    }
    case case_status::passed:
      break;
  }
  if (!result.checks.empty() || result.unverified || result.counter_checks_not_run != 0) {
    std::string out;
    if (result.unverified)
      out += "unverified: the variant registers no verification; its output was not checked\n";
    if (result.counter_checks_not_run != 0) {
      out += "not run: " + std::to_string(result.counter_checks_not_run) +
             " counter check(s), nothing was profiled\n";
    }
    for (std::size_t i = 0; i < result.checks.size(); ++i)
      out += shown.checks[i].verdict_name + ": " + result.checks[i].message + "\n";
    body += "      <system-out>" + xml_escape(out) + "</system-out>\n";
  }
  if (body.empty()) {
    xml += "/>\n";
  } else {
    xml += ">\n" + body + "    </testcase>\n";
  }
}

}  // namespace

std::string render_junit_report(const judged_run& run) {
  const run_results& results = run.results;
  std::map<std::string, suite_counts> suites;  // by name: a stable order
  for (std::size_t i = 0; i < results.cases.size(); ++i) {
    const case_result& result = results.cases[i];
    suite_counts& suite = suites[result.suite];
    suite.cases.push_back(i);
    suite.seconds += std::isfinite(result.seconds) ? result.seconds : 0.0;
    switch (run.statuses[i]) {
      case case_status::failed:
        ++suite.failures;
        break;
      case case_status::error:
        ++suite.errors;
        break;
      case case_status::skipped:
        ++suite.skipped;
        break;
      case case_status::passed:
        break;
    }
  }
  const run_summary& total = run.summary;
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites name=\"counterguard\" " +
         counts_attributes(total.cases, total.failed, total.errors, total.skipped,
                           std::isfinite(total.seconds) ? total.seconds : 0.0) +
         ">\n";
  const suite_context context = make_suite_context(results.metadata, run.static_checks_only);
  for (const auto& [name, suite] : suites) {
    xml += "  <testsuite name=\"" + xml_escape(name) + "\" " +
           counts_attributes(suite.cases.size(), suite.failures, suite.errors, suite.skipped, suite.seconds) +
           context.attributes + ">\n" + context.properties;
    for (const std::size_t position : suite.cases)
      render_case(xml, run, position);
    xml += "  </testsuite>\n";
  }
  xml += "</testsuites>\n";
  return xml;
}

void write_junit_report(const std::string& path, const judged_run& run) {
  write_file_atomically(path, render_junit_report(run));
}

}  // namespace counterguard
