// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/pipeline/judgement.hpp"

namespace counterguard {

// `counterguard merge`: the results files of shards (CI matrix jobs) joined into one results file and one set
// of reports, exiting as `run` would for the whole.
struct merge_options {
  std::vector<std::string> inputs;
  int expected_shards = 0;  // --expect-shards N: a job array of N tasks; 0: the shards' own count
  report_options reports;   // baselines are not compared again: each shard compared its own
  std::string command_line;
};

// Returns the exit status.
int merge_results_files(const merge_options& options);

}  // namespace counterguard
