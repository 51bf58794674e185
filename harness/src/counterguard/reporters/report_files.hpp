// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "counterguard/checker/judged_run.hpp"
#include "counterguard/core/markdown_budget.hpp"
#include "counterguard/history/metric_history.hpp"
#include "counterguard/reporters/console_reporter.hpp"
#include "counterguard/reporters/github_annotations.hpp"
#include "counterguard/reporters/repository_paths.hpp"

namespace counterguard {

// Where a run's report files go: an empty path is not written, "-" is standard output.
struct report_files {
  std::string json;
  std::string junit;
  std::string markdown;
  std::size_t markdown_limit = default_markdown_limit;  // characters; 0: no limit
  std::string html;
  std::string csv;
  std::vector<std::pair<std::string, std::string>> exports;  // --export FORMAT FILE (dashboard_exporters.hpp)
  // FORMAT, FILE pairs of --annotations: the failing checks placed on source and suite lines
  // (finding_reports.hpp).
  std::vector<std::pair<std::string, std::string>> annotations;
  std::size_t annotation_limit = github_annotations_per_step;  // github: 0 is no limit
  std::string source_root;  // repository root the findings' paths are relative to (default: find_source_root)
  std::string source_link;  // the Markdown report links blamed lines under this URL
};

// Refuses, before anything runs, what the reports could not be written as: an --export or --annotations
// format that does not exist, and more than one report on standard output (input_error naming the option).
void check_report_destinations(const report_files& files);

// Writes the JSON, JUnit, Markdown, HTML, CSV, annotation and dashboard reports asked for, for `run`'s
// reports and the C ABI alike (the findings computed once), each rendered before any is written. What does
// not fit in the Markdown summary or the annotations is in the fullest report written to a file (HTML, else
// JSON, else JUnit), which they name; the HTML report plots `history` (the recorded series of the run's GPU
// key).
void write_report_files(const judged_run& run, const report_files& files,
                        const std::vector<metric_history>& history = {});

// Every report of a run: the console report, on standard error when a report goes to standard output (which
// then holds that report alone, so it can be piped), and then the files (write_report_files).
void write_reports(const judged_run& run, const console_report_options& console, const report_files& files,
                   const std::vector<metric_history>& history = {});

}  // namespace counterguard
