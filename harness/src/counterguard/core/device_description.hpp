// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// The GPU a run profiled on, as the profiler described it and results files report it.
struct device_description {
  std::string name;  // "NVIDIA H200"
  std::string chip;  // "GH100"
  int sm_count = 0;
  int compute_capability = 0;  // 90
  int sm_clock_mhz = 0;
  int memory_clock_mhz = 0;
  std::string driver_version;
  std::string cuda_runtime_version;
  std::string cupti_version;
};

}  // namespace counterguard
