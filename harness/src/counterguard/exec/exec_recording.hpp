// SPDX-License-Identifier: Apache-2.0
// A recording measured into case results: the launches each process profiled for a case, through the one
// measurement path (measure_case_parts). Reading the recording is recorded_processes.hpp and
// exec_envelope.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/exec/recorded_processes.hpp"
#include "counterguard/model/case_instance.hpp"
#include "counterguard/results/run_results.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// The cases measured from a recording, through the one measurement path (measure_case_parts).
struct exec_evaluation {
  std::vector<case_result> results;
  std::vector<case_instance> instances;            // parallel to results: per process, named with its label
  std::optional<device_description> device;        // the GPU of the first process that profiled
  std::optional<environment_problem> environment;  // a process could not profile at all
  std::string environment_message;
};

// One result per case and process that profiled launches for it ("suite/case?rank=1" when several did), a
// failed result naming the kernels the program launched for a case that selected none, an error result for
// a case whose launches could not be profiled. Skipped cases stay skipped. Expectations are not checked here.
[[nodiscard]] exec_evaluation evaluate_exec_recording(const std::vector<recorded_process>& processes,
                                                      const std::vector<case_instance>& instances,
                                                      const std::vector<std::string>& extra_metrics,
                                                      const std::vector<kernel_resources>& resources);

}  // namespace counterguard
