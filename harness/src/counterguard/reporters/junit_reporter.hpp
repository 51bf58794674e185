// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

#include "counterguard/checker/judged_run.hpp"
#include "counterguard/reporters/markup_escape.hpp"

namespace counterguard {

// Text made safe for XML 1.0 element content and attribute values (escape_markup).
[[nodiscard]] inline std::string xml_escape(std::string_view text) {
  return escape_markup(text, markup_language::xml);
}

// JUnit XML as CI systems read it: <testsuites> with one <testsuite> per suite and one <testcase> per
// case instance (classname = suite, name = instance, time = seconds). A failed case has one
// <failure message="metric: expected X, measured Y" type="..."> whose body lists every failing check;
// a wrong output is a failure of type "wrong_output"; an error is <error>; a skip is <skipped message>.
// Every check's message is listed in <system-out>.
// A <testcase> carries file and line of the YAML: the first failing check's expectation for a failed case
// (for a baseline check, the case's expectation of the same metric), else the case's own definition
// (omitted when the results do not carry it). Each <testsuite> carries
// timestamp (the run's started_at, UTC, without the zone letter), hostname ("unknown" when not recorded)
// and <properties> gpu_key, gpu_name, driver_version, cuda_runtime_version, cupti_version, git_commit.
[[nodiscard]] std::string render_junit_report(const judged_run& run);

// Writes render_junit_report atomically to `path`.
void write_junit_report(const std::string& path, const judged_run& run);

}  // namespace counterguard
