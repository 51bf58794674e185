// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// The columns of the CSV report, in order.
inline constexpr const char* csv_report_header =
    "instance,suite,case,status,kernel,metric,class,measured,origin,expected,baseline,verdict,failing,"
    "message";

// A run as CSV (RFC 4180: comma-separated, fields holding a comma, quote or line break quoted, quotes
// doubled, CRLF line ends), for spreadsheets and data frames. After the header, per case instance in run
// order: one row per check (expectation, baseline, program or selection check); one row per measured case
// total that no check read (origin "measured"); and one row with the status alone for a case with neither
// (skipped, an error). Numbers are written at full precision (the shortest text that reads back to the same
// double); a value that was not measured, or is not finite, is an empty field.
[[nodiscard]] std::string render_csv_report(const run_results& results);

}  // namespace counterguard
