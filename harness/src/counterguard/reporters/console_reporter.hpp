// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "counterguard/checker/judged_run.hpp"

namespace counterguard {

struct console_report_options {
  bool show_passing = true;  // false: only rows that are not `pass` (CI logs of large suites)
};

// A plain-text table, columns aligned with spaces:
//   CASE  METRIC  EXPECTED  MEASURED  DELTA  VERDICT
// one row per check (shown_checks: per-kernel rows, METRIC "name [kernel]", only where the case launched more
// than one kernel; EXPECTED is the expectation or the baseline band; DELTA is measured - baseline; numbers
// that are not integers to about six significant digits, format_display_value), one row per skipped,
// errored or wrongly computing case, and a last line with the counts (summary_line, every check counted).
// Failing verdicts are upper case.
[[nodiscard]] std::string render_console_report(const judged_run& run,
                                                const console_report_options& options = {});

}  // namespace counterguard
