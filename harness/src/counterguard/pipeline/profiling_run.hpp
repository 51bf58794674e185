// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/pipeline/case_selection.hpp"
#include "counterguard/pipeline/device_choice.hpp"
#include "counterguard/pipeline/judgement.hpp"

namespace counterguard {

// `counterguard run`: the selected cases profiled on the GPU, judged and reported.
struct run_options {
  selection_options selection;
  report_options reports;
  std::string save_counter_data;
  std::vector<std::string> extra_metrics;
  bool require_gpu = false;
  double case_timeout_seconds = 120.0;
  double wait_for_gpu_seconds = 600.0;
  device_options devices;
  std::vector<std::string> cost_from;  // results files whose per-case seconds estimate each case's cost
  std::string shard;                   // --shard I/N; empty: every selected instance
  std::string command_line;
  bool blame_every_failure = false;         // --blame: every failing case, not only regressed exact metrics
  bool no_blame = false;                    // --no-blame
  std::size_t blame_top = 5;                // source lines per blamed case
  std::vector<std::string> blame_external;  // --blame-external: third-party include directories
};

// Selects and shards the instances, profiles them in GPU worker processes, checks expectations and
// baselines, blames regressions to source lines and writes the reports; returns the exit status. Without a
// GPU (and without --require-gpu) only the static checks run, and it says what it skipped.
int run_cases(const run_options& options);

}  // namespace counterguard
