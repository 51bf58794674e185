// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "counterguard/pipeline/case_selection.hpp"

namespace counterguard {

// `counterguard plan`: the range-profiler configurations a `run` of the selected cases would use on their
// chip (raw counters, replay passes, cases), from the CUPTI host library alone (no GPU). `json`: also as JSON
// to this file; "-": only the JSON, on standard output.
// Each configuration costs a re-enabled profiler and a slow first capture; each launch pays for every
// hardware counter stage its configuration collects (docs/cli.md, "Profiler configurations"). Returns the
// exit status.
int print_profiler_plan(const selection_options& selection, const std::string& json);

}  // namespace counterguard
