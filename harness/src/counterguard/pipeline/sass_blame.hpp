// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "counterguard/pipeline/case_selection.hpp"

namespace counterguard {

// `counterguard blame`: per-instruction counters (CUPTI SASS metrics) of a case's kernel launches, joined to
// source lines and SASS, ranked; or the same join (and a before/after diff) offline from recorded profiles.
struct blame_options {
  selection_options selection;
  std::vector<std::string> case_patterns;
  int instance = -1;  // -1: the only match
  std::string record;
  std::string record_dir;  // one profile per instance, and index.json naming each instance's file
  bool quiet = false;      // record only: print no blame
  double wait_for_gpu_seconds = 600.0;
  std::string from;
  std::string against;
  std::string binary;  // the cubins' program (default: the profile's, or this program)
  std::vector<std::string> metrics;
  std::size_t top = 10;
  std::string json;
  int device = 0;
  bool lines_only = false;
  bool list_metrics = false;
  bool trace = false;
  std::vector<std::string> blame_external;  // third-party include directories (line_attribution)
};

// Returns the exit status (1 when a case's output is wrong).
int blame_cases(const blame_options& options);

}  // namespace counterguard
