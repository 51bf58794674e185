// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "counterguard/core/markdown_budget.hpp"
#include "counterguard/exec/replay_mode.hpp"
#include "counterguard/pipeline/case_selection.hpp"
#include "counterguard/pipeline/device_choice.hpp"

namespace counterguard {

// `counterguard baseline update`: each case measured N times, merged into the per-GPU baselines.
struct baseline_update_options {
  selection_options selection;
  std::string baseline_dir = "baselines";
  int repeat = 5;
  std::string summary;  // Markdown summary file (also printed)
  // Over this many characters, `summary` is shortened and the complete one goes to <summary>.full.md.
  std::size_t summary_limit = default_markdown_limit;
  std::vector<std::string> extra_metrics;
  double case_timeout_seconds = 120.0;
  double wait_for_gpu_seconds = 600.0;
  device_options devices;
  std::vector<std::string> cost_from;
  std::string command_line;
  std::string history;  // record every repetition into this history database
  // Noisy entries pool the last N values --history recorded for the GPU key (0: the repetitions alone).
  std::size_t from_history = 0;
  bool replace_all = false;  // replace entries the refresh agrees with too (docs/baselines.md)
  bool with_lines = false;   // also write the per-line profiles of exact metrics (docs/blame.md)
  std::vector<std::string> blame_external;  // --blame-external: third-party include directories
  // --from-recording DIR...: each a recording of one repetition (`run` or `exec --save-counter-data`),
  // measured again without a GPU instead of running anything.
  std::vector<std::string> from_recordings;
  // `baseline update SUITE... -- PROGRAM ARGS`: the program run `repeat` times under `exec`'s injection.
  std::vector<std::string> program;
  std::vector<std::string> binaries;  // --binary: more files to read static metrics from
  double program_timeout_seconds = 600.0;
  bool allow_program_failure = false;
  replay_mode replay = replay_mode::kernel;  // --replay-mode, as exec's
};

// Returns the exit status.
int update_baselines(const baseline_update_options& options);

// `counterguard baseline diff OLD NEW`: did a baseline value or band change between two baseline directories?
struct baseline_diff_options {
  std::string old_directory;
  std::string new_directory;
  std::string summary;
  std::size_t summary_limit = default_markdown_limit;
  bool quiet = false;
};

// 1 when a value or band differs, 0 when none does; prints the differences as Markdown.
int diff_baselines(const baseline_diff_options& options);

// Where the complete summary goes when a --summary file had to be shortened: out/x.md -> out/x.full.md.
[[nodiscard]] std::string full_summary_path(const std::string& summary);

}  // namespace counterguard
