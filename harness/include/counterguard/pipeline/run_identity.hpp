#pragma once

#include <string>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// Metadata every results file carries (version, git commit, command line, start time, host).
[[nodiscard]] run_metadata host_metadata(const std::string& mode, const std::string& command_line);

// Copies what the GPU worker saw of the device (name, chip, SMs, versions, clocks) and sets the GPU key.
void adopt_device(run_metadata& metadata, const run_metadata& device);

// Path of this program, for starting worker processes.
[[nodiscard]] std::string self_executable();

}  // namespace counterguard
