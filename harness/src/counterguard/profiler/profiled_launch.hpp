// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstddef>
#include <string>

namespace counterguard {

// A kernel launch seen by the profiler's launch callback, in launch order (= auto-range index).
struct profiled_launch {
  int range_index = 0;
  std::string range_name;  // CUPTI's auto-range name ("0", "1", ...)
  std::string mangled;     // the kernel's symbol
  std::string function;    // demangled, without the parameter list
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{1, 1, 1};
  std::array<unsigned, 3> cluster{0, 0, 0};  // zero when launched without clusters
  std::size_t dynamic_shared_bytes = 0;
  // From cudaFuncGetAttributes / the occupancy calculator on the device (the "launch" metric source).
  int registers_per_thread = 0;
  std::size_t local_bytes_per_thread = 0;
  std::size_t static_shared_bytes = 0;
  std::size_t constant_bytes = 0;
  double theoretical_occupancy_pct = 0.0;
};

}  // namespace counterguard
