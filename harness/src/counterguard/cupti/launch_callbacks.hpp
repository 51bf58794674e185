// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <array>

namespace counterguard::detail {

// The CUDA runtime's kernel-launch entry points whose CUPTI callbacks counterguard enables, in-process (the
// profiler's launch recorder) and in the injection library alike: the classic, Ex and cooperative launches,
// each with its per-thread default stream variant, and CUDA 13's __cudaLaunchKernel, through which <<<>>>
// launches (internal_launch_params.hpp). Any other callback is ignored.
inline constexpr std::array<CUpti_CallbackId, 8> runtime_launch_callback_ids = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
};

// The driver's kernel-launch entry points, likewise (what Triton, CuPy, Numba and NVRTC programs launch
// through): the classic, Ex and cooperative launches, each with its per-thread default stream variant.
inline constexpr std::array<CUpti_CallbackId, 6> driver_launch_callback_ids = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

// Whether launch callback `id` is a per-thread default stream variant (_ptsz): its stream 0 is the calling
// thread's default stream, not the legacy one.
[[nodiscard]] constexpr bool is_per_thread_stream_launch(CUpti_CallbackDomain domain, CUpti_CallbackId id) {
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
    return id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
           id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
           id == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
  return id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000 ||
         id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060 ||
         id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000 ||
         id == CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000;
}

// The driver launch callbacks' parameters, as generated_cuda_meta.h declares them (that header needs the
// driver's internal API-version macros, so the structs are mirrored here; the _ptsz and cooperative variants
// share these layouts).
struct driver_launch_params {
  CUfunction f;
  unsigned int gridDimX;
  unsigned int gridDimY;
  unsigned int gridDimZ;
  unsigned int blockDimX;
  unsigned int blockDimY;
  unsigned int blockDimZ;
  unsigned int sharedMemBytes;
  CUstream hStream;
  void** kernelParams;
};
struct driver_launch_ex_params {
  const CUlaunchConfig* config;
  CUfunction f;
  void** kernelParams;
  void** extra;
};

// The driver calls that load a module (or a library, whose module in a context the driver loads with it or
// at its first use) and return its handle: with the module-loaded callback that arrives inside them, they
// say which module each launched function comes from (statics/loaded_modules.hpp).
inline constexpr std::array<CUpti_CallbackId, 6> module_load_callback_ids = {
    CUPTI_DRIVER_TRACE_CBID_cuModuleLoad,       CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData,
    CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx, CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary,
    CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData,  CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile,
};
[[nodiscard]] constexpr bool is_module_load_callback(CUpti_CallbackId id) {
  for (const CUpti_CallbackId load : module_load_callback_ids) {
    if (load == id)
      return true;
  }
  return false;
}
[[nodiscard]] constexpr bool loads_library(CUpti_CallbackId id) {
  return id == CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData ||
         id == CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile;
}
// Their parameters begin with the handle they return (cuModuleLoad*_params, cuLibraryLoad*_params).
struct module_load_params {
  CUmodule* module;
};
struct library_load_params {
  CUlibrary* library;
};

}  // namespace counterguard::detail
