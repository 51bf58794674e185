// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace counterguard {

// The UUIDs ("GPU-1b2c...", as gpu_uuid() writes them) of the GPUs the NVIDIA driver lists in its proc files
// (`root`/<PCI address>/information, line "GPU UUID:"), sorted; empty when there are none or the files cannot
// be read. Reading them takes well under a millisecond where initialising the CUDA driver to ask it takes
// about 0.1 s on the H200 host (validation/h200.md, "Start-up"), which `exec` pays
// before the program starts.
[[nodiscard]] std::vector<std::string> driver_gpu_uuids(const std::string& root = "/proc/driver/nvidia/gpus");

}  // namespace counterguard
