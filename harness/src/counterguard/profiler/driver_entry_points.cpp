// SPDX-License-Identifier: Apache-2.0
// Looks up, once, the driver functions the launch recorder calls (through the runtime: this library does not
// link libcuda).
#include "detail/driver_entry_points.hpp"

#include <cuda_runtime_api.h>

namespace counterguard::detail {
namespace {

// Each entry point at the version whose signature the pointer declares (the typedef's suffix).
template <typename Function>
void entry_point(const char* symbol, int version, Function& function) {
  void* found = nullptr;
  cudaDriverEntryPointQueryResult result = cudaDriverEntryPointSymbolNotFound;
  if (cudaGetDriverEntryPointByVersion(symbol, &found, static_cast<unsigned>(version), cudaEnableDefault,
                                       &result) != cudaSuccess ||
      result != cudaDriverEntryPointSuccess) {
    static_cast<void>(cudaGetLastError());
    found = nullptr;
  }
  function = reinterpret_cast<Function>(found);
}

}  // namespace

const driver_functions& driver() {
  static const driver_functions functions = [] {
    driver_functions f;
    entry_point("cuFuncGetName", 12030, f.func_get_name);
    entry_point("cuFuncGetAttribute", 2020, f.func_get_attribute);
    entry_point("cuKernelGetAttribute", 12000, f.kernel_get_attribute);
    entry_point("cuKernelGetFunction", 12000, f.kernel_get_function);
    entry_point("cuOccupancyMaxActiveBlocksPerMultiprocessor", 6050, f.occupancy);
    entry_point("cuOccupancyMaxActiveClusters", 11070, f.occupancy_max_active_clusters);
    entry_point("cuOccupancyMaxPotentialClusterSize", 11070, f.occupancy_max_potential_cluster_size);
    entry_point("cuCtxGetDevice", 13000, f.ctx_get_device);
    entry_point("cuFuncGetModule", 11000, f.func_get_module);
    entry_point("cuLibraryGetModule", 12000, f.library_get_module);
    entry_point("cuDeviceGetAttribute", 2000, f.device_get_attribute);
    entry_point("cuDeviceTotalMem", 3020, f.device_total_mem);
    entry_point("cuCtxGetLimit", 3010, f.ctx_get_limit);
    return f;
  }();
  return functions;
}

}  // namespace counterguard::detail
