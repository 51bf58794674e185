// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <vector>

#include "counterguard/cupti/counter_data_image.hpp"
#include "counterguard/profiler/profiled_launch.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// What profiling one piece of work produced.
struct profile_capture {
  counter_data_image image;
  std::vector<profiled_launch> launches;  // one per range, in order
  int passes = 0;
  int dropped_ranges = 0;  // > 0 when the image was too small (an error for the case)
  // False when a launch's attributes (registers, local bytes, occupancy) could not be read: a runtime launch
  // through another CUDA runtime's host stub (PyTorch's) with no driver launch under it. Its launch metrics
  // are then unknown, not 0.
  bool launch_attributes_known = true;
  // The static resources of the launched kernels whose modules the driver loaded while the profiler was open
  // (what a JIT-compiled kernel has instead of a file): read from the loaded image.
  std::vector<kernel_resources> loaded_kernels;
  // Where the profiling time went ("set_config", "replay", "decode", ...), for COUNTERGUARD_TIMING.
  std::map<std::string, double> phase_seconds;
};

}  // namespace counterguard
