// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace counterguard {

// With COUNTERGUARD_TIMING set, writes "timeline <CLOCK_MONOTONIC seconds> <pid> <what>" to stderr: the
// steps of a run in every process (parent and GPU workers) on one clock, so tools/timing_summary.py can lay
// them out from the moment the command started. Costs one getenv when unset.
void timeline_mark(const char* what);

}  // namespace counterguard
