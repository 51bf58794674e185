// SPDX-License-Identifier: Apache-2.0
// The launch recorder's per-thread state, shared by its callback dispatch, its launch records and its module
// bookkeeping (defined in launch_recorder.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "launch_geometry.hpp"

namespace counterguard::detail {

// The modules loaded on this thread since its outermost launch or module-load call began: the module-loaded
// callback arrives inside the call that loads (validation/launch_code_checks.sh probe).
extern thread_local std::vector<std::uint32_t> t_loaded;

// The launch this thread is in: launch API calls nest (a runtime entry point forwarding to another, or to
// a driver launch); only the outermost is a launch, and the depth keeps the runtime and driver calls made
// while recording from being recorded.
struct thread_launch {
  int depth = 0;
  bool claimed = false;      // the outermost call is a launch being recorded
  std::uint64_t arming = 0;  // the arm() it was recorded under
  std::size_t index = 0;     // its place in the recorded launches
  launch_geometry geometry;
};
extern thread_local thread_launch t_launch;

}  // namespace counterguard::detail
