// SPDX-License-Identifier: Apache-2.0
// The driver API functions the launch recorder calls, found through the CUDA runtime's entry points.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

namespace counterguard::detail {

// The driver calls that name and size a driver launch, through the runtime's entry points (this library
// does not link libcuda, so it starts, and reports "no GPU", on machines without a driver). A missing one is
// null: the launches it would describe keep their attributes unknown.
struct driver_functions {
  PFN_cuFuncGetName_v12030 func_get_name = nullptr;
  PFN_cuFuncGetAttribute_v2020 func_get_attribute = nullptr;
  PFN_cuKernelGetAttribute_v12000 kernel_get_attribute = nullptr;
  PFN_cuKernelGetFunction_v12000 kernel_get_function = nullptr;
  PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050 occupancy = nullptr;
  // The cluster occupancy calculator (ncu's launch__cluster_max_active, _max_potential_size).
  PFN_cuOccupancyMaxActiveClusters_v11070 occupancy_max_active_clusters = nullptr;
  PFN_cuOccupancyMaxPotentialClusterSize_v11070 occupancy_max_potential_cluster_size = nullptr;
  // CUDA 13's cuCtxGetDevice takes the context (null: the current one); the one-argument form of earlier
  // toolkits, called through this entry point, read a stray second argument and crashed the process.
  PFN_cuCtxGetDevice_v13000 ctx_get_device = nullptr;
  // Which module a launched function, or a loaded library, came from (loaded_modules).
  PFN_cuFuncGetModule_v11000 func_get_module = nullptr;
  PFN_cuLibraryGetModule_v12000 library_get_module = nullptr;
  // The device's attributes, for ncu's device__attribute_ and launch__ metrics.
  PFN_cuDeviceGetAttribute_v2000 device_get_attribute = nullptr;
  PFN_cuDeviceTotalMem_v3020 device_total_mem = nullptr;
  // The context's limits at a launch (ncu's launch__stack_size, launch__persisting_l2_cache_size).
  PFN_cuCtxGetLimit_v3010 ctx_get_limit = nullptr;
};

// The driver's entry points, looked up once.
const driver_functions& driver();

}  // namespace counterguard::detail
