// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// One results file to merge, with the path that names it in errors.
struct named_results {
  std::string file;
  run_results results;
};

// Joins results files into one (`counterguard merge`): the shards of one run (metadata.shard), put back in
// the unsharded run's case order, or whole runs of different suites, one after the other in the order given.
// Refused with an input_error naming the files: results of different GPU keys (a file without cases has no
// key), an instance in two files, some inputs sharded and others not, shards of different plans or counts,
// a shard given twice, or shards missing. The merged metadata is the first shard's (first file's), without
// the shard record, with the earliest start time.
// With `expected_shards` (a scheduler's job array of that many tasks), the inputs must be shards of that
// count, and shards without a results file are named even when none has one (no input at all): a task that
// failed, timed out or was preempted before writing its file fails the merge by its shard number. The cases
// are moved out of `inputs`.
[[nodiscard]] run_results merge_results(std::vector<named_results> inputs,
                                        std::optional<int> expected_shards = std::nullopt);

}  // namespace counterguard
