// SPDX-License-Identifier: Apache-2.0
// Launch callbacks' parameters: the structs of generated_cuda_meta.h (driver, mirrored in
// cupti/launch_callbacks.hpp) and generated_cuda_runtime_api_meta.h (runtime). CUDA 13's <<<>>> goes through
// __cudaLaunchKernel, for which CUPTI publishes no struct (cupti/internal_launch_params.hpp). Both the
// runtime and the driver callbacks are handled and the outermost claims the launch; on the H200, exec_demo's
// <<<>>> launches and the built-in runner's launches were named and sized right this way
// (validation/exec_checks.sh).
#include "launch_inspection.hpp"

#include <cuda_runtime_api.h>
#include <cupti_activity.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_runtime_api_meta.h>

#include "counterguard/cupti/cluster_occupancy.hpp"
#include "counterguard/cupti/internal_launch_params.hpp"
#include "counterguard/cupti/launch_callbacks.hpp"
#include "counterguard/metrics/ncu_launch_metrics.hpp"

namespace counterguard::injection {
namespace {

using detail::internal_launch_kernel_params;

using detail::driver_launch_ex_params;
using detail::driver_launch_params;

std::array<unsigned, 3> dims(const dim3& d) {
  return {d.x, d.y, d.z};
}

template <typename Params>
void runtime_classic(const void* raw, intercepted_launch& launch) {
  const auto* p = static_cast<const Params*>(raw);
  launch.runtime_kernel = p->func;
  launch.grid = dims(p->gridDim);
  launch.block = dims(p->blockDim);
  launch.dynamic_shared_bytes = p->sharedMem;
  launch.stream = p->stream;
}

template <typename Params>
void runtime_extended(const void* raw, intercepted_launch& launch) {
  const auto* p = static_cast<const Params*>(raw);
  launch.runtime_kernel = p->func;
  if (p->config == nullptr)
    return;
  launch.grid = dims(p->config->gridDim);
  launch.block = dims(p->config->blockDim);
  launch.dynamic_shared_bytes = p->config->dynamicSmemBytes;
  launch.stream = p->config->stream;
  for (unsigned i = 0; i < p->config->numAttrs && p->config->attrs != nullptr; ++i) {
    if (p->config->attrs[i].id == cudaLaunchAttributeClusterDimension) {
      const auto& c = p->config->attrs[i].val.clusterDim;
      launch.cluster = {c.x, c.y, c.z};
    } else if (p->config->attrs[i].id == cudaLaunchAttributePreferredSharedMemoryCarveout) {
      launch.launch_carveout_pct = static_cast<int>(p->config->attrs[i].val.sharedMemCarveout);
    }
  }
}

template <typename Params>
void driver_classic(const void* raw, intercepted_launch& launch) {
  const auto* p = static_cast<const Params*>(raw);
  launch.function = p->f;
  launch.grid = {p->gridDimX, p->gridDimY, p->gridDimZ};
  launch.block = {p->blockDimX, p->blockDimY, p->blockDimZ};
  launch.dynamic_shared_bytes = p->sharedMemBytes;
  launch.stream = p->hStream;
}

template <typename Params>
void driver_extended(const void* raw, intercepted_launch& launch) {
  const auto* p = static_cast<const Params*>(raw);
  launch.function = p->f;
  if (p->config == nullptr)
    return;
  const CUlaunchConfig& c = *p->config;
  launch.grid = {c.gridDimX, c.gridDimY, c.gridDimZ};
  launch.block = {c.blockDimX, c.blockDimY, c.blockDimZ};
  launch.dynamic_shared_bytes = c.sharedMemBytes;
  launch.stream = c.hStream;
  for (unsigned i = 0; i < c.numAttrs && c.attrs != nullptr; ++i) {
    if (c.attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      const auto& d = c.attrs[i].value.clusterDim;
      launch.cluster = {d.x, d.y, d.z};
    } else if (c.attrs[i].id == CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) {
      launch.launch_carveout_pct = static_cast<int>(c.attrs[i].value.sharedMemCarveout);
    }
  }
}

int function_attribute(CUfunction_attribute which, CUfunction function, CUkernel kernel, CUdevice device,
                       bool& ok) {
  int value = 0;
  if (function != nullptr && cuFuncGetAttribute(&value, which, function) == CUDA_SUCCESS)
    return value;
  if (kernel != nullptr && cuKernelGetAttribute(&value, which, kernel, device) == CUDA_SUCCESS)
    return value;
  ok = false;
  return 0;
}

// What ncu's launch__stream_id, _context_id, _stack_size, _persisting_l2_cache_size and the carve-out read.
void read_launch_context(const intercepted_launch& intercepted, CUfunction function, CUkernel kernel,
                         CUdevice device, profiled_launch& launch) {
  std::uint32_t stream_id = 0;
  if (cuptiGetStreamIdEx(intercepted.context, intercepted.stream, intercepted.per_thread_stream ? 1 : 0,
                         &stream_id) == CUPTI_SUCCESS)
    launch.stream_id = stream_id;
  if (intercepted.context_uid != 0)
    launch.context_id = intercepted.context_uid;
  std::size_t limit = 0;
  if (cuCtxGetLimit(&limit, CU_LIMIT_STACK_SIZE) == CUDA_SUCCESS)
    launch.stack_size_bytes = limit;
  if (cuCtxGetLimit(&limit, CU_LIMIT_PERSISTING_L2_CACHE_SIZE) == CUDA_SUCCESS)
    launch.persisting_l2_bytes = limit;
  bool ok = true;
  const int preferred =
      function_attribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, function, kernel, device, ok);
  if (intercepted.launch_carveout_pct >= 0)
    launch.preferred_carveout_pct = intercepted.launch_carveout_pct;  // the launch's attribute comes first
  else if (ok)
    launch.preferred_carveout_pct = preferred;
}

}  // namespace

const CUpti_CallbackId* runtime_launch_callbacks(std::size_t& count) {
  count = detail::runtime_launch_callback_ids.size();
  return detail::runtime_launch_callback_ids.data();
}

const CUpti_CallbackId* driver_launch_callbacks(std::size_t& count) {
  count = detail::driver_launch_callback_ids.size();
  return detail::driver_launch_callback_ids.data();
}

const CUpti_CallbackId* module_load_callbacks(std::size_t& count) {
  count = detail::module_load_callback_ids.size();
  return detail::module_load_callback_ids.data();
}

bool loads_a_module(CUpti_CallbackId id) {
  return detail::is_module_load_callback(id);
}

CUmodule returned_module(CUpti_CallbackId id, const CUpti_CallbackData& data) {
  if (data.functionParams == nullptr || data.functionReturnValue == nullptr ||
      *static_cast<const CUresult*>(data.functionReturnValue) != CUDA_SUCCESS) {
    return nullptr;
  }
  if (detail::loads_library(id)) {
    CUlibrary library = *static_cast<const detail::library_load_params*>(data.functionParams)->library;
    CUmodule module = nullptr;
    // Under lazy loading the library has no module in this context yet: its module loads at its first use.
    if (library == nullptr || cuLibraryGetModule(&module, library) != CUDA_SUCCESS)
      return nullptr;
    return module;
  }
  return *static_cast<const detail::module_load_params*>(data.functionParams)->module;
}

CUfunction launched_function(const intercepted_launch& intercepted) {
  if (intercepted.runtime_kernel_is_handle || intercepted.function != nullptr) {
    // cuLaunchKernel also takes a CUkernel cast to CUfunction; __cudaLaunchKernel's cudaKernel_t is a
    // CUkernel.
    CUkernel kernel = intercepted.runtime_kernel_is_handle
                          ? reinterpret_cast<CUkernel>(const_cast<void*>(intercepted.runtime_kernel))
                          : reinterpret_cast<CUkernel>(intercepted.function);
    CUfunction loaded = nullptr;
    if (cuKernelGetFunction(&loaded, kernel) == CUDA_SUCCESS && loaded != nullptr)
      return loaded;
  }
  return intercepted.function;
}

std::map<std::string, double> read_device_attributes(CUdevice device, int ordinal) {
  std::size_t total = 0;
  const bool have_total = cuDeviceTotalMem(&total, device) == CUDA_SUCCESS;
  return read_ncu_device_attributes(
      [device](int which) -> std::optional<std::int64_t> {
        int value = 0;
        if (cuDeviceGetAttribute(&value, static_cast<CUdevice_attribute>(which), device) != CUDA_SUCCESS)
          return std::nullopt;
        return value;
      },
      have_total ? std::optional<std::uint64_t>(total) : std::nullopt, ordinal);
}

bool read_launch(CUpti_CallbackDomain domain, CUpti_CallbackId id, const CUpti_CallbackData& data,
                 intercepted_launch& launch) {
  const void* p = data.functionParams;
  if (p == nullptr)
    return false;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    switch (id) {
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
        runtime_classic<cudaLaunchKernel_v7000_params>(p, launch);
        break;
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
        runtime_classic<cudaLaunchKernel_ptsz_v7000_params>(p, launch);
        break;
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
        runtime_classic<cudaLaunchCooperativeKernel_v9000_params>(p, launch);
        break;
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
        runtime_classic<cudaLaunchCooperativeKernel_ptsz_v9000_params>(p, launch);
        break;
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
        runtime_extended<cudaLaunchKernelExC_v11060_params>(p, launch);
        break;
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
        runtime_extended<cudaLaunchKernelExC_ptsz_v11060_params>(p, launch);
        break;
      case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
      case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000: {
        const auto* internal = static_cast<const internal_launch_kernel_params*>(p);
        launch.runtime_kernel = reinterpret_cast<const void*>(internal->kernel);
        launch.runtime_kernel_is_handle = true;
        launch.grid = dims(internal->gridDim);
        launch.block = dims(internal->blockDim);
        launch.dynamic_shared_bytes = internal->sharedMem;
        launch.stream = internal->stream;
        break;
      }
      default:
        return false;
    }
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    switch (id) {
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        driver_classic<driver_launch_params>(p, launch);
        break;
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        driver_extended<driver_launch_ex_params>(p, launch);
        break;
      default:
        return false;
    }
  } else {
    return false;
  }
  launch.per_thread_stream = detail::is_per_thread_stream_launch(domain, id);
  launch.context = data.context;
  launch.context_uid = data.contextUid;
  if (data.symbolName != nullptr) {
    launch.symbol = data.symbolName;
  } else if (launch.function != nullptr) {
    const char* name = nullptr;
    if (cuFuncGetName(&name, launch.function) == CUDA_SUCCESS && name != nullptr)
      launch.symbol = name;
  }
  return true;
}

bool read_launch_attributes(const intercepted_launch& intercepted, CUdevice device, int max_threads_per_sm,
                            profiled_launch& launch) {
  CUfunction function = intercepted.function;
  // cuLaunchKernel also takes a CUkernel cast to CUfunction; __cudaLaunchKernel's cudaKernel_t is a CUkernel.
  CUkernel kernel = intercepted.runtime_kernel_is_handle
                        ? reinterpret_cast<CUkernel>(const_cast<void*>(intercepted.runtime_kernel))
                        : reinterpret_cast<CUkernel>(intercepted.function);
  if (function == nullptr && kernel != nullptr) {
    CUfunction loaded = nullptr;
    if (cuKernelGetFunction(&loaded, kernel) == CUDA_SUCCESS)
      function = loaded;
  }
  if (function == nullptr && kernel == nullptr)
    return false;
  bool ok = true;
  launch.registers_per_thread = function_attribute(CU_FUNC_ATTRIBUTE_NUM_REGS, function, kernel, device, ok);
  launch.local_bytes_per_thread = static_cast<std::size_t>(
      function_attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, function, kernel, device, ok));
  launch.static_shared_bytes = static_cast<std::size_t>(
      function_attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function, kernel, device, ok));
  launch.constant_bytes = static_cast<std::size_t>(
      function_attribute(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, function, kernel, device, ok));
  if (!ok)
    return false;
  if (launch.cluster == std::array<unsigned, 3>{0, 0, 0}) {
    bool cluster_ok = true;
    const int width =
        function_attribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, function, kernel, device, cluster_ok);
    if (cluster_ok && width > 0) {
      launch.cluster = {static_cast<unsigned>(width),
                        static_cast<unsigned>(function_attribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT,
                                                                 function, kernel, device, cluster_ok)),
                        static_cast<unsigned>(function_attribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH,
                                                                 function, kernel, device, cluster_ok))};
    }
  }
  if (const auto clusters = detail::ask_cluster_occupancy(
          &cuOccupancyMaxActiveClusters, &cuOccupancyMaxPotentialClusterSize, function, launch.grid,
          launch.block, launch.dynamic_shared_bytes, launch.cluster)) {
    launch.max_active_clusters = clusters->max_active_clusters;
    launch.max_potential_cluster_size = clusters->max_potential_cluster_size;
  }
  const unsigned threads = launch.block[0] * launch.block[1] * launch.block[2];
  int blocks_per_sm = 0;
  if (function == nullptr ||
      cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, function, static_cast<int>(threads),
                                                  launch.dynamic_shared_bytes) != CUDA_SUCCESS) {
    return false;
  }
  if (max_threads_per_sm >= 32) {
    // Whole warps: a partial warp occupies a full warp slot (as profiler/launch_recorder.cpp computes it).
    const double warps_per_block =
        static_cast<double>((threads + 31) / 32);  // NOLINT(bugprone-integer-division)
    const double warp_slots =
        static_cast<double>(max_threads_per_sm / 32);  // NOLINT(bugprone-integer-division)
    launch.theoretical_occupancy_pct = blocks_per_sm * warps_per_block / warp_slots * 100.0;
  }
  launch.blocks_per_sm = blocks_per_sm;
  read_launch_context(intercepted, function, kernel, device, launch);
  return true;
}

}  // namespace counterguard::injection
