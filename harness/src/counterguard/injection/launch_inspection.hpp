// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda.h>
#include <cupti_callbacks.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "counterguard/profiler/profiled_launch.hpp"

namespace counterguard::injection {

// A kernel launch as one launch API callback (runtime or driver) describes it at its entry.
struct intercepted_launch {
  std::string symbol;                     // the kernel's (mangled) name
  CUfunction function = nullptr;          // driver launches: the function (or a CUkernel cast to it)
  const void* runtime_kernel = nullptr;   // runtime launches: a host stub or a cudaKernel_t
  bool runtime_kernel_is_handle = false;  // runtime_kernel is a cudaKernel_t (__cudaLaunchKernel)
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{1, 1, 1};
  std::array<unsigned, 3> cluster{0, 0, 0};
  std::size_t dynamic_shared_bytes = 0;
  CUstream stream = nullptr;       // as passed (0: the default stream of the call's kind)
  bool per_thread_stream = false;  // a _ptsz call: stream 0 is the per-thread default stream
  CUcontext context = nullptr;     // current at the call
  std::uint32_t context_uid = 0;   // CUPTI's id of that context
  int launch_carveout_pct = -1;    // the launch's preferred shared-memory carve-out attribute; -1: none
};

// The launch callbacks to enable, per domain.
[[nodiscard]] const CUpti_CallbackId* runtime_launch_callbacks(std::size_t& count);
[[nodiscard]] const CUpti_CallbackId* driver_launch_callbacks(std::size_t& count);

// The module-load calls whose exit names the module they loaded (cupti/launch_callbacks.hpp).
[[nodiscard]] const CUpti_CallbackId* module_load_callbacks(std::size_t& count);
[[nodiscard]] bool loads_a_module(CUpti_CallbackId id);
// The module a load call returned (for cuLibraryLoad*, the library's module in the current context); null
// when the call failed.
[[nodiscard]] CUmodule returned_module(CUpti_CallbackId id, const CUpti_CallbackData& data);
// The function a launch ran (a CUkernel's in the current context); null when it cannot be known.
[[nodiscard]] CUfunction launched_function(const intercepted_launch& launch);

// Reads a launch callback's parameters; false when the callback is not a kernel launch this reads.
[[nodiscard]] bool read_launch(CUpti_CallbackDomain domain, CUpti_CallbackId id,
                               const CUpti_CallbackData& data, intercepted_launch& launch);

// The device's attributes by ncu's names (ncu_launch_metrics.hpp): what ncu's device__attribute_ and the
// device-dependent launch__ metrics read.
[[nodiscard]] std::map<std::string, double> read_device_attributes(CUdevice device, int ordinal);

// Fills the "launch" attributes of `launch` (registers, local, static shared and constant bytes, required
// cluster, theoretical occupancy) from the function on `device`; false when the function cannot be queried
// (a runtime launch through a host stub without a driver launch under it).
bool read_launch_attributes(const intercepted_launch& intercepted, CUdevice device, int max_threads_per_sm,
                            profiled_launch& launch);

}  // namespace counterguard::injection
