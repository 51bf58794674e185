// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// One check as the reports show it, worded once when the run is judged (show_case), so that no report words
// a verdict, formats a value or decides what fails by itself.
struct shown_check {
  bool listed = true;        // tables list it: not a per-kernel repeat of its case total (shown_checks)
  bool failing = false;      // it fails its case under the run's rule (is_failing)
  int rank = 0;              // attention_rank under the run's rule: smaller is more urgent
  std::string verdict_name;  // its results name ("regression", "new_metric"), as machine-read text says it
  std::string verdict;       // shown_verdict: as report tables word it ("new" for a new metric)
  std::string metric;        // shown_metric
  std::string expected;      // the expectation with its numbers rounded for reading (round_numbers_in)
  std::string measured;      // as tables show it (format_display_value); "-" when nothing was measured
  std::string measured_in_full;  // format_value's full precision; empty when nothing was measured
  std::string baseline;          // as tables show it; "-" without one
  std::string delta;             // shown_delta
  std::optional<source_location> suite_line;  // expectation_line
};

// One blamed source line as the reports show it.
struct shown_blame_line {
  std::string described;    // describe_blamed_line
  std::string place;        // describe_blamed_place
  std::string kind_change;  // describe_kind_change; empty when the kinds did not change
};

// A case as the reports show it: each of its checks, in their order, and its blamed lines.
struct shown_case {
  std::vector<shown_check> checks;            // one per result.checks, in their order
  std::string regressed;                      // the blamed metrics as a list ("a, b"); empty without blame
  std::vector<shown_blame_line> blame_lines;  // one per result.blame->lines
};

// `result` as the reports show it, under the run's rule (`strict`).
[[nodiscard]] shown_case show_case(const case_result& result, bool strict);

// The checks of `result` a report lists, in their order: all of them when the case launched more than one
// kernel; otherwise without the per-kernel checks that repeat a case-total check (the same metric, origin
// and verdict: one launch measured both, so a one-kernel case would list each baseline check twice).
// A per-kernel check that says something its total does not (another verdict, or no total) stays.
[[nodiscard]] std::vector<const check_outcome*> shown_checks(const case_result& result);

// A check's verdict as report tables word it: its results name, "new" for a new metric.
[[nodiscard]] std::string shown_verdict(check_verdict verdict);

// The suite line a check comes from: its own expectation's, or for a baseline check the line of the
// expectation the case states about the same metric (and kernel); null when there is none.
[[nodiscard]] const source_location* expectation_line(const case_result& result, const check_outcome& check);

// The metric a report names for `check`: "shared_load_requests", or "shared_load_requests [KERNEL]" when the
// check is about one kernel.
[[nodiscard]] std::string shown_metric(const check_outcome& check);

// How far `check` measured from its baseline, as report tables show it ("+1024", "-0.5"); "-" when it has no
// baseline or no measured value.
[[nodiscard]] std::string shown_delta(const check_outcome& check);

}  // namespace counterguard
