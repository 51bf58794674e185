// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nvtx3/nvToolsExt.h>

#include <string>

namespace counterguard {

// An NVTX push/pop range that is popped on every path out, a throwing launch included, so ncu and nsys
// timelines never see a range left open.
class nvtx_range {
 public:
  explicit nvtx_range(const std::string& name) { nvtxRangePushA(name.c_str()); }
  ~nvtx_range() { nvtxRangePop(); }
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;
};

}  // namespace counterguard
