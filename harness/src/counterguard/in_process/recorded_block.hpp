// SPDX-License-Identifier: Apache-2.0
#pragma once
// A profiled block kept for later: its counter data saved as a one-case counter-data archive, which
// measure_recorded_block (process_profiler.hpp) measures again on any machine, no GPU needed, exactly as the
// block was measured (the pytest plugin's --counterguard-save-counter-data and
// --counterguard-from-recording).

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "counterguard/evaluator/counter_data_archive.hpp"
#include "counterguard/in_process/profile_result.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// The observation behind a result; null for a result that measured nothing (profiling was unavailable).
[[nodiscard]] const profiled_work* observed_work(const profile_result& result);

// Writes `result`'s block into `directory` (created if needed): DIR/manifest.json and DIR/000.counterdata.gz
// (one case named `name`, its metadata `metadata` plus what measuring it again needs), and
// DIR/resources.json, the compiler resources of the kernels it launched (a JIT-compiled kernel's are known
// only to the process that loaded it). `chip` names the image's chip where the image does not. Throws
// input_error for a result that holds no counter data, environment_error when a file cannot be written.
void save_profiled_block(const profile_result& result, const std::filesystem::path& directory,
                         const std::string& name, const std::string& chip, const nlohmann::json& metadata);

// What save_profiled_block keeps beside the counters; the defaults for an archive of `counterguard run`.
struct recorded_block_facts {
  bool launch_attributes_known = true;
  double seconds = 0.0;
  std::vector<kernel_resources> resources;
};

[[nodiscard]] recorded_block_facts read_recorded_block_facts(const std::filesystem::path& directory,
                                                             const counter_data_archive& archive);

}  // namespace counterguard
