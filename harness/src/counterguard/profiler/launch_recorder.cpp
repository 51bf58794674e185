// SPDX-License-Identifier: Apache-2.0
#include "detail/launch_recorder.hpp"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_runtime_api_meta.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>

#include "counterguard/core/error.hpp"
#include "counterguard/core/symbol_names.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/internal_launch_params.hpp"
#include "counterguard/cupti/launch_callbacks.hpp"
#include "counterguard/metrics/ncu_launch_metrics.hpp"
#include "counterguard/statics/module_image_resources.hpp"

namespace counterguard::detail {
namespace {

// The launch being recorded, as read from the callback's parameters.
struct launch_geometry {
  const void* func = nullptr;  // runtime: a host stub address or a cudaKernel_t cast to void* (both accepted)
  bool func_is_handle = false;    // func is a cudaKernel_t (__cudaLaunchKernel), i.e. a CUkernel
  CUfunction function = nullptr;  // driver: the function (or a CUkernel cast to it)
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes = 0;
  std::array<unsigned, 3> cluster{0, 0, 0};
};

template <typename Params>
launch_geometry classic_launch(const void* function_params) {
  const auto* params = static_cast<const Params*>(function_params);
  launch_geometry geometry;
  geometry.func = params->func;
  geometry.grid = params->gridDim;
  geometry.block = params->blockDim;
  geometry.dynamic_shared_bytes = params->sharedMem;
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
    for (unsigned i = 0; i < config.numAttrs && config.attrs != nullptr; ++i) {
      if (config.attrs[i].id == cudaLaunchAttributeClusterDimension) {
        const auto& dim = config.attrs[i].val.clusterDim;
        geometry.cluster = {dim.x, dim.y, dim.z};
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
  return geometry;
}

launch_geometry driver_classic_launch(const void* function_params) {
  const auto* params = static_cast<const driver_launch_params*>(function_params);
  launch_geometry geometry;
  geometry.function = params->f;
  geometry.grid = dim3(params->gridDimX, params->gridDimY, params->gridDimZ);
  geometry.block = dim3(params->blockDimX, params->blockDimY, params->blockDimZ);
  geometry.dynamic_shared_bytes = params->sharedMemBytes;
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
    for (unsigned i = 0; i < config.numAttrs && config.attrs != nullptr; ++i) {
      if (config.attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
        const auto& dim = config.attrs[i].value.clusterDim;
        geometry.cluster = {dim.x, dim.y, dim.z};
      }
    }
  }
  return geometry;
}

bool read_geometry(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* params,
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

// The driver calls that name and size a driver launch, through the runtime's entry points (this library
// does not link libcuda, so it starts, and reports "no GPU", on machines without a driver). A missing one is
// null: the launches it would describe keep their attributes unknown.
struct driver_functions {
  PFN_cuFuncGetName_v12030 func_get_name = nullptr;
  PFN_cuFuncGetAttribute_v2020 func_get_attribute = nullptr;
  PFN_cuKernelGetAttribute_v12000 kernel_get_attribute = nullptr;
  PFN_cuKernelGetFunction_v12000 kernel_get_function = nullptr;
  PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050 occupancy = nullptr;
  // CUDA 13's cuCtxGetDevice takes the context (null: the current one); the one-argument form of earlier
  // toolkits, called through this entry point, read a stray second argument and crashed the process.
  PFN_cuCtxGetDevice_v13000 ctx_get_device = nullptr;
  // Which module a launched function, or a loaded library, came from (loaded_modules).
  PFN_cuFuncGetModule_v11000 func_get_module = nullptr;
  PFN_cuLibraryGetModule_v12000 library_get_module = nullptr;
  // The device's attributes, for ncu's device__attribute_ and launch__ metrics.
  PFN_cuDeviceGetAttribute_v2000 device_get_attribute = nullptr;
  PFN_cuDeviceTotalMem_v3020 device_total_mem = nullptr;
};

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

const driver_functions& driver() {
  static const driver_functions functions = [] {
    driver_functions f;
    entry_point("cuFuncGetName", 12030, f.func_get_name);
    entry_point("cuFuncGetAttribute", 2020, f.func_get_attribute);
    entry_point("cuKernelGetAttribute", 12000, f.kernel_get_attribute);
    entry_point("cuKernelGetFunction", 12000, f.kernel_get_function);
    entry_point("cuOccupancyMaxActiveBlocksPerMultiprocessor", 6050, f.occupancy);
    entry_point("cuCtxGetDevice", 13000, f.ctx_get_device);
    entry_point("cuFuncGetModule", 11000, f.func_get_module);
    entry_point("cuLibraryGetModule", 12000, f.library_get_module);
    entry_point("cuDeviceGetAttribute", 2000, f.device_get_attribute);
    entry_point("cuDeviceTotalMem", 3020, f.device_total_mem);
    return f;
  }();
  return functions;
}

// The attributes every launch reports.
struct launch_attributes {
  CUfunction function = nullptr;  // the function the driver ran, where it can be known
  int registers = 0;
  std::size_t local_bytes = 0;
  std::size_t static_shared_bytes = 0;
  std::size_t constant_bytes = 0;
  std::array<unsigned, 3> required_cluster{0, 0, 0};
  int blocks_per_sm = 0;
};

// Through the runtime that made this library: its own host stubs and cudaKernel_t handles.
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

// Through the driver: any function or CUkernel, whichever runtime or library loaded it.
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
  const int width = attribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH);  // 0 or unknown: no cluster
  if (width > 0) {
    out.required_cluster = {static_cast<unsigned>(width),
                            static_cast<unsigned>(attribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT)),
                            static_cast<unsigned>(attribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH))};
  }
  return d.occupancy(&out.blocks_per_sm, function, static_cast<int>(threads), dynamic_shared_bytes) ==
         CUDA_SUCCESS;
}

// The modules loaded on this thread since its outermost launch or module-load call began: the module-loaded
// callback arrives inside the call that loads (validation/launch_code_checks.sh probe).
thread_local std::vector<std::uint32_t> t_loaded;

// The current context's device's attributes by ncu's names; null without a driver that answers.
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

// The launch this thread is in: launch API calls nest (a runtime entry point forwarding to another, or to
// a driver launch); only the outermost is a launch, and the depth keeps the runtime and driver calls made
// while recording from being recorded.
struct thread_launch {
  int depth = 0;
  bool claimed = false;      // the outermost call is a launch being recorded
  std::uint64_t arming = 0;  // the arm() it was recorded under
  std::size_t index = 0;     // its place in the recorded launches
  launch_geometry geometry;
};
thread_local thread_launch t_launch;

}  // namespace

launch_recorder::launch_recorder(int max_threads_per_sm, int architecture)
    : m_max_threads_per_sm(max_threads_per_sm), m_architecture(architecture) {
  static_cast<void>(driver());  // the driver's entry points, before any callback needs them
  COUNTERGUARD_CUPTI_CHECK(cuptiSubscribe(&m_subscriber, &launch_recorder::on_callback, this));
  auto enable = [&](CUpti_CallbackDomain domain, CUpti_CallbackId id, const char* what) {
    const CUptiResult status = cuptiEnableCallback(1, m_subscriber, domain, id);
    if (status != CUPTI_SUCCESS) {
      COUNTERGUARD_CUPTI_NOTHROW(cuptiUnsubscribe(m_subscriber));
      throw_cupti_error(status, what);
    }
  };
  for (const CUpti_CallbackId id : runtime_launch_callback_ids)
    enable(CUPTI_CB_DOMAIN_RUNTIME_API, id, "cuptiEnableCallback(CUPTI_CB_DOMAIN_RUNTIME_API, launch)");
  for (const CUpti_CallbackId id : driver_launch_callback_ids)
    enable(CUPTI_CB_DOMAIN_DRIVER_API, id, "cuptiEnableCallback(CUPTI_CB_DOMAIN_DRIVER_API, launch)");
  enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED,
         "cuptiEnableCallback(CUPTI_CB_DOMAIN_RESOURCE, module loaded)");
  enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING,
         "cuptiEnableCallback(CUPTI_CB_DOMAIN_RESOURCE, module unload)");
  for (const CUpti_CallbackId id : module_load_callback_ids)
    enable(CUPTI_CB_DOMAIN_DRIVER_API, id, "cuptiEnableCallback(CUPTI_CB_DOMAIN_DRIVER_API, module load)");
}

launch_recorder::~launch_recorder() {
  COUNTERGUARD_CUPTI_NOTHROW(cuptiUnsubscribe(m_subscriber));
}

void launch_recorder::module_loaded(std::uint32_t module_id, const std::uint8_t* image, std::size_t size) {
  module_image_kernels read;
  try {
    // A fat binary holds a cubin per architecture: the one the driver runs is the device's.
    read = read_module_image_resources(image, size, m_architecture, "module " + std::to_string(module_id));
  } catch (const std::exception& e) {
    // A module we cannot read leaves its kernels with what the driver states of them.
    read.note = std::string("an image counterguard could not read: ") + e.what();
  }
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_modules.loaded(module_id, read.kernels, read.note);
  for (auto& kernel : read.kernels) {
    std::string mangled = kernel.mangled;
    m_module_kernels.insert_or_assign(std::move(mangled), std::move(kernel));
  }
}

void launch_recorder::module_load_returned(CUpti_CallbackId id, const CUpti_CallbackData& data) {
  if (t_loaded.empty() || data.functionParams == nullptr || data.functionReturnValue == nullptr ||
      *static_cast<const CUresult*>(data.functionReturnValue) != CUDA_SUCCESS) {
    return;
  }
  CUmodule module = nullptr;
  if (loads_library(id)) {
    const CUlibrary library = *static_cast<const library_load_params*>(data.functionParams)->library;
    // Under lazy loading the library has no module in this context yet: its module loads at its first use.
    if (library == nullptr || driver().library_get_module == nullptr ||
        driver().library_get_module(&module, library) != CUDA_SUCCESS)
      return;
  } else {
    module = *static_cast<const module_load_params*>(data.functionParams)->module;
  }
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_modules.bind(reinterpret_cast<std::uintptr_t>(module), t_loaded);
}

std::vector<kernel_resources> launch_recorder::loaded_resources(
    const std::vector<profiled_launch>& launches) {
  const std::lock_guard<std::mutex> lock(m_mutex);
  std::vector<kernel_resources> resources;
  for (const auto& launch : launches) {
    if (!launch.code.empty()) {
      const auto code = std::find_if(m_codes.begin(), m_codes.end(), [&](const kernel_resources& r) {
        return r.module == launch.code && r.mangled == launch.mangled;
      });
      const bool listed = std::any_of(resources.begin(), resources.end(), [&](const kernel_resources& r) {
        return r.module == launch.code && r.mangled == launch.mangled;
      });
      if (code != m_codes.end() && !listed)
        resources.push_back(*code);
      continue;
    }
    const auto found = m_module_kernels.find(launch.mangled);
    const bool listed = std::any_of(resources.begin(), resources.end(),
                                    [&](const kernel_resources& r) { return r.mangled == launch.mangled; });
    if (found != m_module_kernels.end() && !listed)
      resources.push_back(found->second);
  }
  return resources;
}

void launch_recorder::arm() {
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_launches.clear();
  m_codes.clear();
  m_attributes_known = true;
  m_armed = true;
  ++m_arming;
}

std::vector<profiled_launch> launch_recorder::disarm() {
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_armed = false;
  return std::move(m_launches);
}

void CUPTIAPI launch_recorder::on_callback(void* user_data, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                           const void* data) {
  auto* recorder = static_cast<launch_recorder*>(user_data);
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && data != nullptr) {
    const auto& resource = *static_cast<const CUpti_ResourceData*>(data);
    const auto* module = static_cast<const CUpti_ModuleResourceData*>(resource.resourceDescriptor);
    try {
      if (module != nullptr && id == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
        t_loaded.push_back(module->moduleId);
        recorder->module_loaded(module->moduleId, reinterpret_cast<const std::uint8_t*>(module->pCubin),
                                module->cubinSize);
      } else if (module != nullptr && id == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
        const std::lock_guard<std::mutex> lock(recorder->m_mutex);
        recorder->m_modules.unloading(module->moduleId);
      }
    } catch (...) {
    }
    return;
  }
  if ((domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) || data == nullptr)
    return;
  const auto& callback = *static_cast<const CUpti_CallbackData*>(data);
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API && is_module_load_callback(id)) {
    try {
      if (callback.callbackSite == CUPTI_API_ENTER) {
        if (t_launch.depth == 0)
          t_loaded.clear();
      } else {
        recorder->module_load_returned(id, callback);
        t_loaded.clear();
      }
    } catch (...) {
    }
    return;
  }
  // Never let an exception cross CUPTI's C frames.
  try {
    if (callback.callbackSite == CUPTI_API_EXIT) {
      if (t_launch.depth == 0)
        return;
      if (--t_launch.depth == 0 && t_launch.claimed)
        recorder->exited();
      return;
    }
    if (++t_launch.depth == 1) {
      t_launch.claimed = false;
      t_loaded.clear();
      recorder->entered(domain, id, callback);
    } else if (t_launch.claimed && domain == CUPTI_CB_DOMAIN_DRIVER_API &&
               t_launch.geometry.function == nullptr && callback.functionParams != nullptr) {
      // The driver launch under a runtime launch: its function describes kernels of any runtime.
      launch_geometry nested;
      if (read_geometry(domain, id, callback.functionParams, &nested))
        t_launch.geometry.function = nested.function;
    }
  } catch (...) {
  }
}

void launch_recorder::entered(CUpti_CallbackDomain domain, CUpti_CallbackId id,
                              const CUpti_CallbackData& data) {
  launch_geometry geometry;
  if (data.functionParams == nullptr || !read_geometry(domain, id, data.functionParams, &geometry))
    return;
  {
    const std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_armed)
      return;
  }
  profiled_launch launch;
  const char* symbol = data.symbolName;  // valid at API entry for launch callbacks (checked on the H200)
  if (symbol == nullptr && geometry.func != nullptr &&
      cudaFuncGetName(&symbol, geometry.func) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    symbol = nullptr;
  }
  if (symbol == nullptr && geometry.function != nullptr && driver().func_get_name != nullptr &&
      driver().func_get_name(&symbol, geometry.function) != CUDA_SUCCESS) {
    symbol = nullptr;
  }
  launch.mangled = symbol != nullptr ? symbol : "";
  launch.function = strip_signature(demangle(launch.mangled));
  launch.grid = {geometry.grid.x, geometry.grid.y, geometry.grid.z};
  launch.block = {geometry.block.x, geometry.block.y, geometry.block.z};
  launch.cluster = geometry.cluster;
  launch.dynamic_shared_bytes = geometry.dynamic_shared_bytes;

  const std::lock_guard<std::mutex> lock(m_mutex);
  if (!m_armed)
    return;
  launch.range_index = static_cast<int>(m_launches.size());
  launch.range_name = std::to_string(launch.range_index);  // replaced by the image's name after decoding
  t_launch.claimed = true;
  t_launch.arming = m_arming;
  t_launch.index = m_launches.size();
  t_launch.geometry = geometry;
  m_launches.push_back(std::move(launch));
}

void launch_recorder::exited() {
  // Read when the call returns, so a driver launch under a runtime launch has named its function. Queries
  // made here fire no launch callback. Not verified on a GPU for driver launches.
  const launch_geometry& geometry = t_launch.geometry;
  const unsigned threads = geometry.block.x * geometry.block.y * geometry.block.z;
  launch_attributes attributes;
  bool known = geometry.func != nullptr &&
               runtime_attributes(geometry.func, threads, geometry.dynamic_shared_bytes, attributes);
  if (!known) {
    // A driver launch, or a runtime launch through another runtime's host stub (PyTorch's own libcudart):
    // the driver knows the function whichever runtime loaded it.
    const auto kernel = geometry.func_is_handle ? reinterpret_cast<CUkernel>(const_cast<void*>(geometry.func))
                                                : reinterpret_cast<CUkernel>(geometry.function);
    attributes = launch_attributes{};
    known = driver_attributes(geometry.function, kernel, threads, geometry.dynamic_shared_bytes, attributes);
  }
  t_launch.claimed = false;
  if (known && attributes.function == nullptr) {
    // Attributes through the runtime: the function the driver ran, for which module it came from.
    const auto kernel = geometry.func_is_handle ? reinterpret_cast<CUkernel>(const_cast<void*>(geometry.func))
                                                : reinterpret_cast<CUkernel>(geometry.function);
    attributes.function = geometry.function;
    CUfunction loaded = nullptr;
    if (kernel != nullptr && driver().kernel_get_function != nullptr &&
        driver().kernel_get_function(&loaded, kernel) == CUDA_SUCCESS && loaded != nullptr)
      attributes.function = loaded;
  }
  CUmodule module = nullptr;
  const bool module_known = known && attributes.function != nullptr && driver().func_get_module != nullptr &&
                            driver().func_get_module(&module, attributes.function) == CUDA_SUCCESS;
  const std::vector<std::uint32_t> loaded_during_call = std::move(t_loaded);
  t_loaded.clear();
  std::shared_ptr<const std::map<std::string, double>> device_attributes;
  {
    const std::lock_guard<std::mutex> lock(m_mutex);
    device_attributes = m_device_attributes;
  }
  if (known && !device_attributes)
    device_attributes = current_device_attributes();  // once: one recorder per device

  const std::lock_guard<std::mutex> lock(m_mutex);
  if (!m_armed || t_launch.arming != m_arming || t_launch.index >= m_launches.size()) {
    if (module_known && !loaded_during_call.empty())  // a lazily loaded module: which handle it became
      m_modules.bind(reinterpret_cast<std::uintptr_t>(module), loaded_during_call);
    return;
  }
  if (!known) {
    m_attributes_known = false;
    return;
  }
  profiled_launch& launch = m_launches[t_launch.index];
  if (!m_device_attributes)
    m_device_attributes = device_attributes;
  launch.device_attributes = m_device_attributes;
  launch.blocks_per_sm = attributes.blocks_per_sm;
  if (module_known) {
    const driver_function_attributes stated{attributes.registers, attributes.local_bytes,
                                            attributes.static_shared_bytes, attributes.constant_bytes};
    kernel_resources code = m_modules.function_code(reinterpret_cast<std::uintptr_t>(module), launch.mangled,
                                                    launch.function, stated, loaded_during_call);
    launch.code = code.module;
    const bool listed = std::any_of(m_codes.begin(), m_codes.end(), [&](const kernel_resources& r) {
      return r.module == code.module && r.mangled == code.mangled;
    });
    if (!listed)
      m_codes.push_back(std::move(code));
  }
  launch.registers_per_thread = attributes.registers;
  launch.local_bytes_per_thread = attributes.local_bytes;
  launch.static_shared_bytes = attributes.static_shared_bytes;
  launch.constant_bytes = attributes.constant_bytes;
  if (launch.cluster == std::array<unsigned, 3>{0, 0, 0})
    launch.cluster = attributes.required_cluster;
  if (m_max_threads_per_sm >= 32) {
    // Whole warps: a partial warp occupies a full warp slot.
    const double warps_per_block =
        static_cast<double>((threads + 31) / 32);  // NOLINT(bugprone-integer-division)
    const double max_warps_per_sm =
        static_cast<double>(m_max_threads_per_sm / 32);  // NOLINT(bugprone-integer-division)
    launch.theoretical_occupancy_pct = attributes.blocks_per_sm * warps_per_block / max_warps_per_sm * 100.0;
  }
}

}  // namespace counterguard::detail
