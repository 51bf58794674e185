// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counterguard/model/case_instance.hpp"
#include "counterguard/planning/case_cost.hpp"
#include "counterguard/results/shard_record.hpp"

namespace counterguard {

// `--shard I/N`: this job runs shard I (1-based) of N.
struct shard_spec {
  int index = 1;
  int count = 1;
};

// Parses "I/N" with 1 <= I <= N; anything else is an input_error naming `field` ("--shard").
[[nodiscard]] shard_spec parse_shard_spec(const std::string& text, const std::string& field = "--shard");

// Which shard (0-based) each case instance belongs to, balanced by cost: greedy longest-processing-time
// over a deterministic order (cost, highest first; then the name's stable hash; then the name), each
// instance to the shard with the least cost so far (the lowest-numbered on a tie). The same names and costs
// give the same assignment on every machine, so N jobs that each compute it run every instance exactly once.
// With equal costs (no timing information) this deals the instances out in the order of their names' hashes,
// so shard sizes differ by at most one.
struct shard_assignment {
  std::vector<int> shard_of;  // per instance, 0..count-1
  std::vector<double> load;   // per shard: the sum of its instances' costs
  std::string plan;           // digest of names, costs' effect and shards: equal exactly when the plans are
};
[[nodiscard]] shard_assignment assign_shards(const std::vector<std::string>& names,
                                             const std::vector<double>& costs, int count);

// The positions (into `names`) of shard `spec` and its record for the results file.
[[nodiscard]] shard_record make_shard_record(const shard_assignment& assignment, const shard_spec& spec);

// The selected instances of shard `shard_text` ("I/N"; empty: all of them), balanced by `costs`, each
// instance's expected cost (estimate_case_costs) and the record its results file carries. Unless `quiet`, a
// shard says on standard error which part of the run it is.
struct shard_selection {
  std::vector<case_instance> instances;
  std::vector<double> costs;  // one per instance, in their order
  std::optional<shard_record> shard;
};
[[nodiscard]] shard_selection select_shard(std::vector<case_instance> instances,
                                           const std::string& shard_text, const case_cost_table& costs,
                                           bool quiet);

}  // namespace counterguard
