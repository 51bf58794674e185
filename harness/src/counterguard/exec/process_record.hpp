// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/model/launch_context.hpp"
#include "counterguard/model/process_identity.hpp"
#include "counterguard/results/run_results.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// A kernel a process launched, selected or not (the "selected nothing" message lists them).
struct seen_kernel {
  std::string function;  // demangled, without parameters
  std::string mangled;
  std::int64_t launches = 0;
  std::vector<std::string> nvtx;  // the distinct NVTX contexts it was launched in (the first few), described
  // The same contexts range by range (absent in records written before they were kept): what the "selected
  // nothing" diagnosis compares a selector with.
  std::vector<nvtx_context> contexts;
  // Its launches in each of `contexts` (absent in older records: empty); launches in contexts past the first
  // max_nvtx_contexts_per_kernel are in `launches` alone. What `counterguard record` counts ordinals with.
  std::vector<std::int64_t> context_launches;
  // Its resources from the module the driver loaded it from (a JIT-compiled kernel's only source of static
  // metrics); absent when that module held no cubin or was loaded before the injection.
  std::optional<kernel_resources> resources;
};

// How far a case got in this process.
struct case_progress {
  std::string name;
  bool applies = true;              // its process selector matches this process
  std::int64_t matches = 0;         // launches that matched its selector
  std::int64_t profiled = 0;        // of those, profiled
  std::vector<std::string> errors;  // profiling failures of its launches (each fails the case)
};

// What one process of a program run under `counterguard exec` recorded about itself, in
// <recording>/processes/<pid>-<start>/process.json: who it was, its GPU, every kernel it launched and each
// case's progress. Rewritten as things happen (atomically) and a last time at exit, so a crash leaves the
// state of its last profiled launch.
struct process_record {
  static constexpr int schema_version = 1;
  static constexpr std::size_t max_nvtx_contexts_per_kernel = 8;

  process_identity process;
  std::optional<device_description> device;  // GPU fields only: the device of the first profiled launch
  std::int64_t launches = 0;                 // every kernel launch of the process
  std::vector<seen_kernel> kernels;          // in first-launch order
  std::vector<case_progress> cases;          // in the instructions' order
  // The code of each function a profiled launch ran, read from its own module or stated by the driver: the
  // resources a launch's code key (profiled_launch::code, with its mangled name) names. Absent in records
  // written before launches named their code.
  std::vector<kernel_resources> functions;
  // The attributes of the device of the first profiled launch by ncu's names (device__attribute_ metrics
  // and the launch__ ones derived from them); empty in records written before they were kept.
  std::map<std::string, double> device_attributes;
  std::optional<environment_problem> environment;  // set when this process could not profile at all
  std::string environment_message;
  // Automatic replay's decision in this process (exec/automatic_replay.hpp); empty when it made none.
  std::string replay_decision;
  bool finished = false;  // the process reached exit() (false: it crashed or was killed)
};

// Records one launch of `function` (`mangled`) in the NVTX context `nvtx`.
void note_launch(process_record& record, const std::string& function, const std::string& mangled,
                 const nvtx_context& nvtx);

void save_process_record(const std::string& path, const process_record& record);
// A missing or malformed file is an input_error naming it and the field.
[[nodiscard]] process_record load_process_record(const std::string& path);

}  // namespace counterguard
