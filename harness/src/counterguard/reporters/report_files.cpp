// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/report_files.hpp"

#include "counterguard/reporters/csv_reporter.hpp"
#include "counterguard/reporters/finding_reports.hpp"
#include "counterguard/reporters/findings.hpp"
#include "counterguard/reporters/html_reporter.hpp"
#include "counterguard/reporters/json_reporter.hpp"
#include "counterguard/reporters/junit_reporter.hpp"
#include "counterguard/reporters/markdown_reporter.hpp"
#include "counterguard/reporters/report_output.hpp"

namespace counterguard {

void write_report_files(const judged_run& run, const report_files& files,
                        const std::vector<metric_history>& history) {
  if (!files.json.empty())
    write_report_text(files.json, render_json_report(run));
  if (!files.junit.empty())
    write_report_text(files.junit, render_junit_report(run));
  auto in_a_file = [](const std::string& path) { return is_standard_output(path) ? std::string() : path; };
  const std::string html = in_a_file(files.html);
  const std::string json = in_a_file(files.json);
  const std::string full_report = !html.empty() ? html : !json.empty() ? json : in_a_file(files.junit);
  if (!files.markdown.empty()) {
    write_report_text(files.markdown, render_markdown_report(run, {files.markdown_limit, full_report},
                                                             {files.source_link, files.source_root}));
  }
  if (!files.annotations.empty()) {
    const std::vector<finding> findings =
        collect_findings(run, repository_paths(find_source_root(files.source_root)));
    finding_report_options options;
    options.annotation_limit = files.annotation_limit;
    options.full_report = full_report;
    options.version = run.results.metadata.counterguard_version;
    for (const auto& [name, path] : files.annotations)
      write_report_text(path, render_finding_report(*parse_finding_format(name), findings, options));
  }
  if (!files.html.empty())
    write_report_text(files.html, render_html_report(run, history));
  if (!files.csv.empty())
    write_report_text(files.csv, render_csv_report(run.results));
}

}  // namespace counterguard
