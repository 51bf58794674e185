// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "counterguard/core/markdown_budget.hpp"
#include "counterguard/history/metric_history.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Where a run's report files go: an empty path is not written, "-" is standard output.
struct report_files {
  std::string json;
  std::string junit;
  std::string markdown;
  std::size_t markdown_limit = default_markdown_limit;  // characters; 0: no limit
  std::string html;
  std::string csv;
};

// Writes the JSON, JUnit, Markdown, HTML and CSV reports asked for, for `run`'s reports and the C ABI alike.
// What does not fit in the Markdown summary is in the fullest report written to a file (HTML, else JSON, else
// JUnit), which the summary names; the HTML report plots `history` (the recorded series of the run's GPU
// key).
void write_report_files(const run_results& results, const report_files& files, bool strict,
                        const std::vector<metric_history>& history = {});

}  // namespace counterguard
