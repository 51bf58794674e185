// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/json_reporter.hpp"

#include <cmath>

#include "counterguard/core/atomic_file.hpp"

namespace counterguard {

namespace {

nlohmann::json summary_json(const judged_run& run) {
  const run_summary& s = run.summary;
  nlohmann::json summary = {{"cases", s.cases},
                            {"passed", s.passed},
                            {"failed", s.failed},
                            {"skipped", s.skipped},
                            {"errors", s.errors},
                            {"wrong_output", s.wrong_output},
                            {"checks",
                             {{"total", s.checks},
                              {"pass", s.check_pass},
                              {"fail", s.check_fail},
                              {"regression", s.check_regression},
                              {"improvement", s.check_improvement},
                              {"new_metric", s.check_new},
                              {"missing", s.check_missing},
                              {"failing", s.failing_checks}}},
                            {"strict", run.strict},
                            {"seconds", std::isfinite(s.seconds) ? s.seconds : 0.0},
                            {"exit_code", static_cast<int>(run.status)}};
  if (run.unmeasured) {
    summary["counter_checks_not_run"] = run.unmeasured->checks;
    summary["static_checks_only"] = run.static_checks_only;
  }
  return summary;
}

std::string dumped(const nlohmann::json& value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

// `text` (a dump indented by 2) as it appears `depth` spaces deeper. JSON strings hold no raw newlines, so
// every newline starts a line of the dump.
void append_indented(std::string& out, const std::string& text, std::size_t depth) {
  const std::string newline = "\n" + std::string(depth, ' ');
  for (const char c : text) {
    if (c == '\n')
      out += newline;
    else
      out += c;
  }
}

}  // namespace

nlohmann::json make_json_report(const judged_run& run) {
  nlohmann::json report = run.results;
  report["summary"] = summary_json(run);
  return report;
}

std::string render_json_report(const judged_run& run) {
  const run_results& results = run.results;
  // The text make_json_report(...).dump(2) gives, built one case at a time: the document of a large run
  // (nlohmann's tree is about ten times the size of its text) never exists as a whole.
  run_results shell;
  shell.schema_version = results.schema_version;
  shell.metadata = results.metadata;
  const nlohmann::json head = shell;
  std::string out = "{\n  \"cases\": [";
  run_results one;
  one.cases.resize(1);
  for (std::size_t i = 0; i < results.cases.size(); ++i) {
    one.cases.front() = results.cases[i];
    const nlohmann::json document = one;
    out += i == 0 ? "\n    " : ",\n    ";
    append_indented(out, dumped(document["cases"][0]), 4);
  }
  out += results.cases.empty() ? "],\n  \"metadata\": " : "\n  ],\n  \"metadata\": ";
  append_indented(out, dumped(head["metadata"]), 2);
  out += ",\n  \"schema_version\": " + dumped(head["schema_version"]) + ",\n  \"summary\": ";
  append_indented(out, dumped(summary_json(run)), 2);
  out += "\n}\n";
  return out;
}

void write_json_report(const std::string& path, const judged_run& run) {
  write_file_atomically(path, render_json_report(run));
}

}  // namespace counterguard
