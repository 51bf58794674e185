// SPDX-License-Identifier: Apache-2.0
// Every report a run asked for: checked before the run, rendered after it, then written.
#include "counterguard/reporters/report_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "counterguard/core/error.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/reporters/csv_reporter.hpp"
#include "counterguard/reporters/dashboard_exporters.hpp"
#include "counterguard/reporters/finding_reports.hpp"
#include "counterguard/reporters/findings.hpp"
#include "counterguard/reporters/html_reporter.hpp"
#include "counterguard/reporters/json_reporter.hpp"
#include "counterguard/reporters/junit_reporter.hpp"
#include "counterguard/reporters/markdown_reporter.hpp"
#include "counterguard/reporters/report_output.hpp"

namespace counterguard {
namespace {

// One report, rendered and not yet written; `notice` goes to standard error once it is.
struct rendered_report {
  std::string path;
  std::string text;
  std::string notice;
};

// The options (or "--export FORMAT" and "--annotations FORMAT") whose report goes to standard output.
std::vector<std::string> on_standard_output(const report_files& files) {
  std::vector<std::string> options;
  for (const auto& [option, path] : {std::pair<const char*, const std::string&>{"--json", files.json},
                                     {"--junit", files.junit},
                                     {"--markdown", files.markdown},
                                     {"--html", files.html},
                                     {"--csv", files.csv}}) {
    if (is_standard_output(path))
      options.emplace_back(option);
  }
  for (const auto& [format, path] : files.exports) {
    if (is_standard_output(path))
      options.push_back("--export " + format);
  }
  for (const auto& [format, path] : files.annotations) {
    if (is_standard_output(path))
      options.push_back("--annotations " + format);
  }
  return options;
}

// A github-action-benchmark file holds one direction: what the other direction's file would hold, unless it
// is written too.
std::string left_out_notice(dashboard_format format, const std::string& path, const run_results& results,
                            const report_files& files) {
  if (format != dashboard_format::github_action_benchmark &&
      format != dashboard_format::github_action_benchmark_bigger)
    return {};
  const bool bigger = format == dashboard_format::github_action_benchmark_bigger;
  const char* other = dashboard_format_name(bigger ? dashboard_format::github_action_benchmark
                                                   : dashboard_format::github_action_benchmark_bigger);
  const std::size_t left_out = github_action_benchmark_values(results, !bigger);
  const bool other_written = std::any_of(files.exports.begin(), files.exports.end(),
                                         [&](const auto& e) { return e.first == other; });
  if (left_out == 0 || other_written)
    return {};
  return fmt::format(
      "counterguard: {} ({}) leaves out {} values of metrics whose {} values are better: "
      "`--export {} FILE` writes them\n",
      path, bigger ? "customBiggerIsBetter" : "customSmallerIsBetter", left_out,
      bigger ? "smaller" : "bigger", other);
}

std::vector<rendered_report> render_report_files(const judged_run& run, const report_files& files,
                                                 const std::vector<metric_history>& history) {
  std::vector<rendered_report> reports;
  if (!files.json.empty())
    reports.push_back({files.json, render_json_report(run), {}});
  if (!files.junit.empty())
    reports.push_back({files.junit, render_junit_report(run), {}});
  auto in_a_file = [](const std::string& path) { return is_standard_output(path) ? std::string() : path; };
  const std::string html = in_a_file(files.html);
  const std::string json = in_a_file(files.json);
  const std::string full_report = !html.empty() ? html : !json.empty() ? json : in_a_file(files.junit);
  if (!files.markdown.empty()) {
    reports.push_back({files.markdown,
                       render_markdown_report(run, {files.markdown_limit, full_report},
                                              {files.source_link, files.source_root}),
                       {}});
  }
  if (!files.annotations.empty()) {
    const std::vector<finding> findings =
        collect_findings(run, repository_paths(find_source_root(files.source_root)));
    finding_report_options options;
    options.annotation_limit = files.annotation_limit;
    options.full_report = full_report;
    options.version = run.results.metadata.counterguard_version;
    for (const auto& [name, path] : files.annotations)
      reports.push_back({path, render_finding_report(*parse_finding_format(name), findings, options), {}});
  }
  if (!files.html.empty())
    reports.push_back({files.html, render_html_report(run, history), {}});
  if (!files.csv.empty())
    reports.push_back({files.csv, render_csv_report(run.results), {}});
  for (const auto& [name, path] : files.exports) {
    const dashboard_format format = *parse_dashboard_format(name);
    reports.push_back({path, render_dashboard_export(format, run.results),
                       left_out_notice(format, path, run.results, files)});
  }
  return reports;
}

}  // namespace

void check_report_destinations(const report_files& files) {
  for (const auto& [format, path] : files.exports) {
    if (!parse_dashboard_format(format)) {
      throw input_error({}, "--export", "unknown export format '" + format + "'",
                        "--export FORMAT FILE with FORMAT one of " + comma_list(dashboard_format_names()));
    }
  }
  for (const auto& [format, path] : files.annotations) {
    if (!parse_finding_format(format)) {
      throw input_error({}, "--annotations", "unknown annotation format '" + format + "'",
                        "--annotations FORMAT FILE with FORMAT one of " + comma_list(finding_format_names()));
    }
  }
  const std::vector<std::string> options = on_standard_output(files);
  if (options.size() > 1) {
    throw input_error({}, options[1],
                      "more than one report goes to standard output (" + comma_list(options) + ")",
                      "give '-' to one of them and a file to the others");
  }
}

void write_report_files(const judged_run& run, const report_files& files,
                        const std::vector<metric_history>& history) {
  for (const rendered_report& report : render_report_files(run, files, history)) {
    write_report_text(report.path, report.text);
    if (!report.notice.empty())
      std::fputs(report.notice.c_str(), stderr);
  }
}

void write_reports(const judged_run& run, const console_report_options& console, const report_files& files,
                   const std::vector<metric_history>& history) {
  std::fputs(render_console_report(run, console).c_str(),
             on_standard_output(files).empty() ? stdout : stderr);
  write_report_files(run, files, history);
}

}  // namespace counterguard
