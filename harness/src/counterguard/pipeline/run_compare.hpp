// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>

namespace counterguard {

// `counterguard compare A B`: two runs side by side, metric by metric (docs/history.md).
struct compare_options {
  std::string a;
  std::string b;
  std::string history;
  std::string gpu_key;
  std::string markdown;
  std::string json;
  bool all = false;
  bool fail_on_change = false;
  std::size_t noise_window = 20;
  double z_threshold = 3.5;
};

// A and B are results JSON files or, with a history database, run:ID, a run id or the start of a commit.
// Returns the exit status (1 with fail_on_change when a metric changed).
int compare_two_runs(const compare_options& options);

}  // namespace counterguard
