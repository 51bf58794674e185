// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <vector>

#include "counterguard/model/case_instance.hpp"
#include "counterguard/results/case_seconds.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// How long each case instance is expected to take, for handing work out longest first (several GPUs) and for
// balancing shards (--shard). The estimate is the per-case `seconds` of earlier results; nothing here changes
// what a case measures, only where and when it runs.
struct case_cost_table {
  std::map<std::string, double> seconds;  // by instance name
};

// The per-case `seconds` of results; a later file's value wins for an instance that several files hold.
[[nodiscard]] case_cost_table case_costs_of(const std::vector<run_results>& results);
// The same from seconds recorded in results files (read_case_seconds of `--cost-from F`); a later record
// wins for an instance recorded several times.
[[nodiscard]] case_cost_table case_costs_of(const std::vector<recorded_seconds>& recorded);

// One cost per instance: its recorded seconds; an instance with no (finite, positive) record costs the
// median of all recorded ones; with no record at all every instance costs 1. A case the YAML skips costs 0.
[[nodiscard]] std::vector<double> estimate_case_costs(const std::vector<case_instance>& instances,
                                                      const case_cost_table& table);

// Positions 0..n-1 ordered longest first; equal costs keep their given order.
[[nodiscard]] std::vector<std::size_t> longest_first(const std::vector<double>& costs);

}  // namespace counterguard
