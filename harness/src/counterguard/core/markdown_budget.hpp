// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>

namespace counterguard {

// GitHub refuses a pull-request, issue or comment body over 65,536 characters. The default leaves room for
// a wrapper around the report (a heading, a link, a second report).
inline constexpr std::size_t default_markdown_limit = 60000;

// How much a Markdown report may hold, and where the reader finds what did not fit.
struct markdown_budget {
  std::size_t max_characters =
      default_markdown_limit;  // counted in bytes (never fewer than characters); 0: no limit
  std::string full_report;     // the artifact with everything (a path); empty: the job's console output
};

// The line a report ends its list with when `left_out` of `total` entries (named by `noun`, plural) did not
// fit: "_**12 of 3000 entries are not listed here** for size; all of them are in `out/results.json`._"
[[nodiscard]] std::string markdown_overflow_line(std::size_t left_out, std::size_t total,
                                                 const std::string& noun, const std::string& full_report);

}  // namespace counterguard
