// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Where recorded results came from, and what makes them the same results.
struct history_source {
  std::string origin;        // a results file's path, "counterguard run", "baseline update 2/5", ...
  std::string content_hash;  // results_content_hash(); recording a hash that is already stored is a no-op
};

// SHA-256 (hex) of the results' canonical JSON: the same results have the same hash whether they come from
// a `--history` run or from its results file imported later. `distinguisher` separates runs whose results
// are identical by design (the repetitions of one `baseline update`).
[[nodiscard]] std::string results_content_hash(const run_results& results,
                                               const std::string& distinguisher = {});

}  // namespace counterguard
