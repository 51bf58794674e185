// SPDX-License-Identifier: Apache-2.0
// Reads a launch's geometry (function, grid, block, dynamic shared memory, cluster) from the parameters of
// each runtime and driver launch callback.
#include "detail/launch_geometry.hpp"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_runtime_api_meta.h>

#include "counterguard/cupti/internal_launch_params.hpp"
#include "counterguard/cupti/launch_callbacks.hpp"

namespace counterguard::detail {
namespace {

template <typename Params>
launch_geometry classic_launch(const void* function_params) {
  const auto* params = static_cast<const Params*>(function_params);
  launch_geometry geometry;
  geometry.func = params->func;
  geometry.grid = params->gridDim;
  geometry.block = params->blockDim;
  geometry.dynamic_shared_bytes = params->sharedMem;
  geometry.stream = params->stream;
  return geometry;
}

template <typename Params>
launch_geometry extended_launch(const void* function_params) {
  const auto* params = static_cast<const Params*>(function_params);
  launch_geometry geometry;
  geometry.func = params->func;
  if (params->config != nullptr) {
    const cudaLaunchConfig_t& config = *params->config;
    geometry.grid = config.gridDim;
    geometry.block = config.blockDim;
    geometry.dynamic_shared_bytes = config.dynamicSmemBytes;
    geometry.stream = config.stream;
    for (unsigned i = 0; i < config.numAttrs && config.attrs != nullptr; ++i) {
      if (config.attrs[i].id == cudaLaunchAttributeClusterDimension) {
        const auto& dim = config.attrs[i].val.clusterDim;
        geometry.cluster = {dim.x, dim.y, dim.z};
      } else if (config.attrs[i].id == cudaLaunchAttributePreferredSharedMemoryCarveout) {
        geometry.launch_carveout_pct = static_cast<int>(config.attrs[i].val.sharedMemCarveout);
      }
    }
  }
  return geometry;
}

launch_geometry internal_launch(const void* function_params) {
  const auto* params = static_cast<const internal_launch_kernel_params*>(function_params);
  launch_geometry geometry;
  // cudaKernel_t cast to void* is accepted by cudaFuncGetAttributes and the occupancy API
  // (\note_cudaKernel_t).
  geometry.func = reinterpret_cast<const void*>(params->kernel);
  geometry.func_is_handle = true;
  geometry.grid = params->gridDim;
  geometry.block = params->blockDim;
  geometry.dynamic_shared_bytes = params->sharedMem;
  geometry.stream = params->stream;
  return geometry;
}

launch_geometry driver_classic_launch(const void* function_params) {
  const auto* params = static_cast<const driver_launch_params*>(function_params);
  launch_geometry geometry;
  geometry.function = params->f;
  geometry.grid = dim3(params->gridDimX, params->gridDimY, params->gridDimZ);
  geometry.block = dim3(params->blockDimX, params->blockDimY, params->blockDimZ);
  geometry.dynamic_shared_bytes = params->sharedMemBytes;
  geometry.stream = params->hStream;
  return geometry;
}

launch_geometry driver_extended_launch(const void* function_params) {
  const auto* params = static_cast<const driver_launch_ex_params*>(function_params);
  launch_geometry geometry;
  geometry.function = params->f;
  if (params->config != nullptr) {
    const CUlaunchConfig& config = *params->config;
    geometry.grid = dim3(config.gridDimX, config.gridDimY, config.gridDimZ);
    geometry.block = dim3(config.blockDimX, config.blockDimY, config.blockDimZ);
    geometry.dynamic_shared_bytes = config.sharedMemBytes;
    geometry.stream = config.hStream;
    for (unsigned i = 0; i < config.numAttrs && config.attrs != nullptr; ++i) {
      if (config.attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
        const auto& dim = config.attrs[i].value.clusterDim;
        geometry.cluster = {dim.x, dim.y, dim.z};
      } else if (config.attrs[i].id == CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) {
        geometry.launch_carveout_pct = static_cast<int>(config.attrs[i].value.sharedMemCarveout);
      }
    }
  }
  return geometry;
}

bool read_parameters(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* params,
                     launch_geometry* geometry) {
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    switch (id) {
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        *geometry = driver_classic_launch(params);
        return true;
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        *geometry = driver_extended_launch(params);
        return true;
      default:
        return false;
    }
  }
  switch (id) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
      *geometry = classic_launch<cudaLaunchKernel_v7000_params>(params);
      return true;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
      *geometry = classic_launch<cudaLaunchKernel_ptsz_v7000_params>(params);
      return true;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
      *geometry = classic_launch<cudaLaunchCooperativeKernel_v9000_params>(params);
      return true;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
      *geometry = classic_launch<cudaLaunchCooperativeKernel_ptsz_v9000_params>(params);
      return true;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
      *geometry = extended_launch<cudaLaunchKernelExC_v11060_params>(params);
      return true;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
      *geometry = extended_launch<cudaLaunchKernelExC_ptsz_v11060_params>(params);
      return true;
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
      *geometry = internal_launch(params);
      return true;
    default:
      return false;
  }
}

}  // namespace

bool read_geometry(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* params,
                   launch_geometry* geometry) {
  if (!read_parameters(domain, id, params, geometry))
    return false;
  geometry->per_thread_stream = is_per_thread_stream_launch(domain, id);
  return true;
}

}  // namespace counterguard::detail
