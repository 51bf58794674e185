// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "counterguard/checker/judged_run.hpp"
#include "counterguard/core/markdown_budget.hpp"
#include "counterguard/core/markdown_cell.hpp"
#include "counterguard/reporters/repository_paths.hpp"

namespace counterguard {

// A Markdown summary for GitHub job summaries and PR comments: a heading with the overall result, then
// one table of everything that needs attention, most urgent first (errors, wrong outputs, failed
// expectations, regressions, missing metrics, improvements, new metrics), then the counts, then the
// skipped cases in a collapsed <details> block. Passing checks are not listed.
// Longer than budget.max_characters, it keeps the heading and the counts and lists the most urgent rows
// that fit, then a line saying how many were left out and naming budget.full_report, where all of them are.
// With links.url_base, each blamed source line found in the repository links to that line at the commit.
[[nodiscard]] std::string render_markdown_report(const judged_run& run, const markdown_budget& budget = {},
                                                 const source_links& links = {});

// Writes render_markdown_report atomically to `path`.
void write_markdown_report(const std::string& path, const judged_run& run,
                           const markdown_budget& budget = {});

}  // namespace counterguard
