// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "counterguard/model/case_instance.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// A directory written by `counterguard run --save-counter-data DIR`, evaluable on any machine:
//   DIR/run.json   {"suite_paths": [...], "results": <results JSON of the GPU run>}
//   DIR/NNNN/      one counter-data archive per case profiled with counters (evaluator/counter_data_archive)
struct recorded_run {
  std::vector<std::string> suite_paths;
  run_results results;
};

// Writes DIR/run.json (atomically; the archives are written by the worker as cases finish).
void save_recorded_run(const std::filesystem::path& directory, const recorded_run& run);

// Reads DIR/run.json. A missing file, bad JSON or a malformed envelope (not an object, no "results", a
// "suite_paths" that is not an array of strings) is an input_error naming the file and the field.
[[nodiscard]] recorded_run load_recorded_run(const std::filesystem::path& directory);

// The selected instances the recording holds, measured again from its counter data through measure_case:
// the values a GPU run produced, on a machine with no GPU. Cases recorded without counters (skipped, failed
// early, static only) keep their recorded result without checks. Expectations are not checked here.
// `evaluated` receives the instances of the returned cases, in the same order.
[[nodiscard]] run_results evaluate_recording(const std::filesystem::path& directory,
                                             const recorded_run& recording,
                                             const std::vector<case_instance>& instances,
                                             std::vector<case_instance>& evaluated);

}  // namespace counterguard
