// SPDX-License-Identifier: Apache-2.0
// The geometry of a launch as a launch callback's parameters give it (runtime or driver API), for the launch
// recorder's files.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_callbacks.h>

#include <array>
#include <cstddef>

namespace counterguard::detail {

// The launch being recorded, as read from the callback's parameters.
struct launch_geometry {
  const void* func = nullptr;  // runtime: a host stub address or a cudaKernel_t cast to void* (both accepted)
  bool func_is_handle = false;    // func is a cudaKernel_t (__cudaLaunchKernel), i.e. a CUkernel
  CUfunction function = nullptr;  // driver: the function (or a CUkernel cast to it)
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes = 0;
  std::array<unsigned, 3> cluster{0, 0, 0};
  CUstream stream = nullptr;       // as passed (0: the default stream of the call's kind)
  bool per_thread_stream = false;  // a _ptsz call: stream 0 is the per-thread default stream
  int launch_carveout_pct = -1;    // the launch's preferred shared-memory carve-out attribute; -1: none
};

// Reads the geometry of a launch callback `id` of `domain` from its parameters; false for a callback that is
// not a launch.
bool read_geometry(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* params,
                   launch_geometry* geometry);

}  // namespace counterguard::detail
