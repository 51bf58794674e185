// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Metadata every results file carries (version, git commit, command line, start time, host).
[[nodiscard]] run_metadata host_metadata(const std::string& mode, const std::string& command_line);

// The device the run profiled on (as its GPU worker described it), and its GPU key.
void adopt_device(run_metadata& metadata, const device_description& device);

// Path of this program, for starting worker processes.
[[nodiscard]] std::string self_executable();

}  // namespace counterguard
