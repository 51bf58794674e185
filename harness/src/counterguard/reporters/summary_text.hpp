// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "counterguard/checker/judged_run.hpp"

namespace counterguard {

// "12 cases: 10 passed, 1 failed, 1 skipped, 0 errors; checks: 40 pass, 1 fail, 1 regression,
//  0 improvement, 2 new, 0 missing"; a run that profiled nothing adds
//  "; static checks only: 24 counter checks not run: no GPU".
[[nodiscard]] std::string summary_line(const judged_run& run);

// The run's verdict in a word or two, as report headings show it: "passed", "FAILED", or
// "passed (static checks only)" when the run profiled nothing.
[[nodiscard]] std::string verdict_heading(const judged_run& run);

}  // namespace counterguard
