// SPDX-License-Identifier: Apache-2.0
// Reads a launched function's attributes and occupancy (through the runtime, else the driver) and the
// current device's attributes by ncu's names.
#include "detail/launch_attributes.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>

#include "counterguard/metrics/ncu_launch_metrics.hpp"
#include "detail/driver_entry_points.hpp"

namespace counterguard::detail {

bool runtime_attributes(const void* func, unsigned threads, std::size_t dynamic_shared_bytes,
                        launch_attributes& out) {
  cudaFuncAttributes attributes{};
  if (func == nullptr || cudaFuncGetAttributes(&attributes, func) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    return false;
  }
  out.registers = attributes.numRegs;
  out.local_bytes = attributes.localSizeBytes;
  out.static_shared_bytes = attributes.sharedSizeBytes;
  out.constant_bytes = attributes.constSizeBytes;
  out.preferred_carveout_pct = attributes.preferredShmemCarveout;
  if (attributes.requiredClusterWidth > 0) {
    out.required_cluster = {static_cast<unsigned>(attributes.requiredClusterWidth),
                            static_cast<unsigned>(attributes.requiredClusterHeight),
                            static_cast<unsigned>(attributes.requiredClusterDepth)};
  }
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out.blocks_per_sm, func, static_cast<int>(threads),
                                                    dynamic_shared_bytes) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    return false;
  }
  return true;
}

bool driver_attributes(CUfunction function, CUkernel kernel, unsigned threads,
                       std::size_t dynamic_shared_bytes, launch_attributes& out) {
  const driver_functions& d = driver();
  if (kernel != nullptr && d.kernel_get_function != nullptr) {
    // A CUkernel (also one cast to CUfunction for cuLaunchKernel): its function in the current context.
    CUfunction loaded = nullptr;
    if (d.kernel_get_function(&loaded, kernel) == CUDA_SUCCESS && loaded != nullptr)
      function = loaded;
  }
  out.function = function;
  CUdevice device = 0;
  const bool have_device = d.ctx_get_device != nullptr && d.ctx_get_device(&device, nullptr) == CUDA_SUCCESS;
  bool ok = true;
  auto attribute = [&](CUfunction_attribute which) {
    int value = 0;
    if (function != nullptr && d.func_get_attribute != nullptr &&
        d.func_get_attribute(&value, which, function) == CUDA_SUCCESS)
      return value;
    if (kernel != nullptr && have_device && d.kernel_get_attribute != nullptr &&
        d.kernel_get_attribute(&value, which, kernel, device) == CUDA_SUCCESS)
      return value;
    ok = false;
    return 0;
  };
  out.registers = attribute(CU_FUNC_ATTRIBUTE_NUM_REGS);
  out.local_bytes = static_cast<std::size_t>(attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES));
  out.static_shared_bytes = static_cast<std::size_t>(attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
  out.constant_bytes = static_cast<std::size_t>(attribute(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES));
  if (!ok || function == nullptr || d.occupancy == nullptr)
    return false;
  const int carveout = attribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT);
  if (ok)
    out.preferred_carveout_pct = carveout;
  ok = true;
  const int width = attribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH);  // 0 or unknown: no cluster
  if (width > 0) {
    out.required_cluster = {static_cast<unsigned>(width),
                            static_cast<unsigned>(attribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT)),
                            static_cast<unsigned>(attribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH))};
  }
  return d.occupancy(&out.blocks_per_sm, function, static_cast<int>(threads), dynamic_shared_bytes) ==
         CUDA_SUCCESS;
}

std::shared_ptr<const std::map<std::string, double>> current_device_attributes() {
  const driver_functions& d = driver();
  CUdevice device = 0;
  if (d.ctx_get_device == nullptr || d.device_get_attribute == nullptr ||
      d.ctx_get_device(&device, nullptr) != CUDA_SUCCESS)
    return nullptr;
  std::size_t total = 0;
  const bool have_total = d.device_total_mem != nullptr && d.device_total_mem(&total, device) == CUDA_SUCCESS;
  return std::make_shared<const std::map<std::string, double>>(read_ncu_device_attributes(
      [&](int which) -> std::optional<std::int64_t> {
        int value = 0;
        if (d.device_get_attribute(&value, static_cast<CUdevice_attribute>(which), device) != CUDA_SUCCESS)
          return std::nullopt;
        return value;
      },
      have_total ? std::optional<std::uint64_t>(total) : std::nullopt, static_cast<int>(device)));
}

}  // namespace counterguard::detail
