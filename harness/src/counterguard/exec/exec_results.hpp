// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counterguard/exec/exec_recording.hpp"
#include "counterguard/exec/program_outcome.hpp"
#include "counterguard/model/case_instance.hpp"
#include "counterguard/results/run_results.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// The compiler resources of the kernels in the programs that ran and in `binaries` (--binary), for the
// architecture of `device` (every architecture without one): what static metrics of exec cases read. A
// program without device code of its own (a script, an interpreter) has none; only a file the user named
// that cannot be read is an input_error.
[[nodiscard]] std::vector<kernel_resources> program_resources(
    const std::vector<recorded_process>& processes, const std::vector<std::string>& binaries,
    const std::optional<device_description>& device);

// The results of an exec run (or of its evaluation): the program's own case ("exec/program") first, then the
// evaluated cases, under `metadata`. `checked` gets the instances whose expectations each result is checked
// against, in the same order.
[[nodiscard]] run_results exec_run_results(const exec_evaluation& evaluation, const program_outcome& program,
                                           bool allow_program_failure, run_metadata metadata,
                                           std::vector<case_instance>& checked);

// What ran, for stderr: how the program ended, each process's launches and how many were profiled, and each
// case that profiled fewer of its matching launches than it could (its max_launches).
[[nodiscard]] std::string exec_run_summary(const program_outcome& program,
                                           const std::vector<recorded_process>& processes,
                                           const std::vector<case_instance>& instances);

}  // namespace counterguard
