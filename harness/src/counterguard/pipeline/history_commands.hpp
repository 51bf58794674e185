// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace counterguard {

// `counterguard history import|list`: the run history, an SQLite file of every recorded run.
struct history_options {
  std::string database;
  std::vector<std::string> files;  // import
  std::string gpu_key;             // list
  std::string commit;
  std::size_t last = 0;
};

// Records results JSON files, each in a transaction of its own; returns 2 when one was refused.
int import_results_files(const history_options& options);
// Prints the recorded runs, oldest first.
int list_recorded_runs(const history_options& options);

}  // namespace counterguard
