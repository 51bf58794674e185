// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/model/launch_selector.hpp"

namespace counterguard {

// The environment variable that names the instructions file for the injection library.
inline constexpr const char* exec_instructions_variable = "COUNTERGUARD_EXEC_INSTRUCTIONS";

// One case the injection library profiles launches for.
struct exec_case_request {
  std::string name;  // the case instance, "suite/case"
  launch_selector selector;
  std::vector<std::string> raw_metrics;  // the CUPTI metrics to collect; empty: launch attributes only
  // Its launches are profiled with exactly its own counters, not the process's one configuration: it measures
  // a noisy metric (measures_noisy_metric), as `run` does.
  bool own_configuration = false;
};

// What `counterguard exec` tells the injection library loaded into every process of the program: where to
// record, and which launches to profile with which counters (docs/exec.md).
struct exec_instructions {
  static constexpr int schema_version = 1;
  std::string output_directory;  // processes record into <output_directory>/processes/<pid>-<start>/
  std::vector<exec_case_request> cases;
  // Which of each profiled launch's one-pass groups (exec/pass_groups.hpp) this run collects: groups
  // first_pass_group .. first_pass_group + pass_group_count - 1; count 0 with first 0 is the whole
  // configuration, unplanned (kernel replay in one run).
  int first_pass_group = 0;
  int pass_group_count = 0;
  // Automatic replay's first run (whole configuration asked for): each process decides launch by launch
  // whether CUPTI kernel-replays a multi-pass launch now or collects its first group only and leaves the rest
  // to further runs of the program (exec/automatic_replay.hpp).
  bool automatic_replay = false;
};

// Writes the instructions file atomically.
void save_exec_instructions(const std::string& path, const exec_instructions& instructions);
// Reads it back; a missing or malformed file is an input_error naming the file and the field.
[[nodiscard]] exec_instructions load_exec_instructions(const std::string& path);

}  // namespace counterguard
