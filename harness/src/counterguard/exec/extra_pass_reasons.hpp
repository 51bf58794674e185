// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/exec/pass_groups.hpp"
#include "counterguard/exec/recorded_processes.hpp"
#include "counterguard/metrics/metric_definition.hpp"
#include "counterguard/model/case_instance.hpp"

namespace counterguard {

// Which of `metrics` (what the cases asked for, aliases or raw names) force a launch's counters past one
// pass, one line each, in the metrics' order:
//   "shared_load_bank_conflicts: instrumented counters take a pass of their own"
//   "dram_bytes_read: its hardware counters do not fit in one pass with the others' (pass 2 of 3)"
// A metric whose counters all lie in the first group costs no extra pass and is not named; nothing when the
// plan has one group.
[[nodiscard]] std::vector<std::string> extra_pass_reasons(const pass_groups& plan,
                                                          const std::vector<metric_definition>& metrics);

// For the run's output: one line per distinct set of counters that took more than one pass in a recording
// (kernel replay's passes, or application replay's groups), naming the cases, the passes and the metrics of
// `instances` (with `extra_metrics`) that forced the extra ones. Planned for each launch's recorded chip.
[[nodiscard]] std::vector<std::string> describe_extra_passes(const std::vector<recorded_process>& processes,
                                                             const std::vector<case_instance>& instances,
                                                             const std::vector<std::string>& extra_metrics);

}  // namespace counterguard
