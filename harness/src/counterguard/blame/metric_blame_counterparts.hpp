// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace counterguard {

// The blame metrics (per-instruction counts, sass_metric_names.hpp) that show where a kernel-level counter
// comes from, from the CUPTI counters it is computed of: shared-memory wavefronts and bank conflicts ->
// shared_excess_wavefronts and shared_wavefronts; global requests and sectors -> global_excess_sectors and
// global_sectors; local memory -> local_sectors and local instructions; divergent branches ->
// divergent_branch_targets; thread instructions -> predicated_off_thread_instructions and
// thread_executed_instructions; instructions -> executed_instructions. Most telling first; empty when no
// per-instruction counter corresponds (DRAM bytes, cache hit rates, occupancy, constant-cache requests).
[[nodiscard]] std::vector<std::string> blame_metrics_for(const std::vector<std::string>& raw_inputs);

}  // namespace counterguard
