// Plant (a): a device function in a header of the project, inlined into the kernel that calls it. The planted
// build reads every second element (twice the sectors per request) on this header's line; blame names the
// kernel's line that calls it, the header's line in its chain. Both builds keep every line where it is.
#pragma once

namespace blame_inline {

#ifdef BLAME_INLINE_PLANT
constexpr unsigned gather_stride = 2;
#else
constexpr unsigned gather_stride = 1;
#endif

__device__ __forceinline__ float gathered(const float* in, unsigned i) {
  return in[i * gather_stride] * 2.0F;
}

}  // namespace blame_inline
// SPDX-License-Identifier: Apache-2.0
