// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace counterguard {

// How long one case instance took in an earlier run (its `seconds`; NaN where the file holds null).
struct recorded_seconds {
  std::string instance;
  double seconds = 0.0;
};

// The per-case seconds of the results file at `path`, in file order, read in one pass over what a cost
// needs (schema_version, and each case's instance and seconds) rather than as a whole run_results. A file
// that cannot be read, or one of those fields missing or mistyped, is an input_error naming the file and
// the field ("cases[3].seconds").
[[nodiscard]] std::vector<recorded_seconds> read_case_seconds(const std::string& path);
// The same for every file at `paths` (`--cost-from F`), file after file in the order given.
[[nodiscard]] std::vector<recorded_seconds> read_case_seconds(const std::vector<std::string>& paths);

}  // namespace counterguard
