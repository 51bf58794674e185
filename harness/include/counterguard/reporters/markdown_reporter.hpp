#pragma once

#include <string>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// A Markdown summary for GitHub job summaries and PR comments: a heading with the overall result, then
// one table of everything that needs attention, most urgent first (errors, wrong outputs, failed
// expectations, regressions, missing metrics, improvements, new metrics), then the counts, then the
// skipped cases in a collapsed <details> block. Passing checks are not listed.
[[nodiscard]] std::string render_markdown_report(const run_results& results, bool strict);

// Writes render_markdown_report atomically to `path`.
void write_markdown_report(const std::string& path, const run_results& results, bool strict);

// Text safe inside a Markdown table cell: '|' escaped, line breaks as spaces.
[[nodiscard]] std::string markdown_cell(const std::string& text);

}  // namespace counterguard
