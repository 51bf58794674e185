#include "detail/launch_recorder.hpp"

#include <cuda_runtime_api.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_runtime_api_meta.h>

#include <array>

#include "counterguard/core/error.hpp"
#include "counterguard/core/symbol_names.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/internal_launch_params.hpp"

namespace counterguard::detail {
namespace {

// The launch being recorded, as read from the callback's parameters.
struct launch_geometry {
  const void* func = nullptr;  // a host stub address or a cudaKernel_t cast to void* (both accepted)
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
  geometry.grid = params->gridDim;
  geometry.block = params->blockDim;
  geometry.dynamic_shared_bytes = params->sharedMem;
  return geometry;
}

// The runtime launch entry points whose callbacks are enabled; anything else is ignored.
constexpr std::array<CUpti_CallbackId, 8> k_launch_callbacks = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
};

bool read_geometry(CUpti_CallbackId id, const void* params, launch_geometry* geometry) {
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

// Launch API calls can nest (one entry point forwarding to another); only the outermost is a launch.
// The flag also keeps the runtime calls made while recording from being recorded.
thread_local int t_launch_depth = 0;

}  // namespace

launch_recorder::launch_recorder(int max_threads_per_sm) : m_max_threads_per_sm(max_threads_per_sm) {
  COUNTERGUARD_CUPTI_CHECK(cuptiSubscribe(&m_subscriber, &launch_recorder::on_callback, this));
  for (const CUpti_CallbackId id : k_launch_callbacks) {
    const CUptiResult status = cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id);
    if (status != CUPTI_SUCCESS) {
      COUNTERGUARD_CUPTI_NOTHROW(cuptiUnsubscribe(m_subscriber));
      throw_cupti_error(status, "cuptiEnableCallback(CUPTI_CB_DOMAIN_RUNTIME_API, launch)");
    }
  }
}

launch_recorder::~launch_recorder() {
  COUNTERGUARD_CUPTI_NOTHROW(cuptiUnsubscribe(m_subscriber));
}

void launch_recorder::arm() {
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_launches.clear();
  m_first_problem.clear();
  m_armed = true;
}

std::vector<profiled_launch> launch_recorder::disarm() {
  const std::lock_guard<std::mutex> lock(m_mutex);
  m_armed = false;
  if (!m_first_problem.empty())
    throw api_error(m_first_problem, 0);
  return std::move(m_launches);
}

void CUPTIAPI launch_recorder::on_callback(void* user_data, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                           const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API || data == nullptr)
    return;
  const auto& callback = *static_cast<const CUpti_CallbackData*>(data);
  if (callback.callbackSite == CUPTI_API_EXIT) {
    if (t_launch_depth > 0)
      --t_launch_depth;
    return;
  }
  if (++t_launch_depth != 1)
    return;
  // Never let an exception cross CUPTI's C frames.
  try {
    static_cast<launch_recorder*>(user_data)->record(id, callback);
  } catch (...) {
  }
}

void launch_recorder::record(CUpti_CallbackId id, const CUpti_CallbackData& data) {
  {
    const std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_armed)
      return;
  }
  launch_geometry geometry;
  if (!read_geometry(id, data.functionParams, &geometry))
    return;

  profiled_launch launch;
  std::string problem;
  const char* symbol = data.symbolName;  // valid at API entry for launch callbacks (checked on the H200)
  if (symbol == nullptr && geometry.func != nullptr &&
      cudaFuncGetName(&symbol, geometry.func) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    symbol = nullptr;
  }
  launch.mangled = symbol != nullptr ? symbol : "";
  launch.function = strip_signature(demangle(launch.mangled));
  launch.grid = {geometry.grid.x, geometry.grid.y, geometry.grid.z};
  launch.block = {geometry.block.x, geometry.block.y, geometry.block.z};
  launch.cluster = geometry.cluster;
  launch.dynamic_shared_bytes = geometry.dynamic_shared_bytes;

  // Runtime queries inside the callback: no launch callback fires for them, and t_launch_depth > 0 keeps
  // any nested launch API out of the record. Not verified on a GPU.
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, geometry.func);
  if (status != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    problem = "cudaFuncGetAttributes for kernel '" + launch.mangled + "': " + cudaGetErrorName(status);
  } else {
    launch.registers_per_thread = attributes.numRegs;
    launch.local_bytes_per_thread = attributes.localSizeBytes;
    launch.static_shared_bytes = attributes.sharedSizeBytes;
    launch.constant_bytes = attributes.constSizeBytes;
    if (launch.cluster == std::array<unsigned, 3>{0, 0, 0} && attributes.requiredClusterWidth > 0) {
      launch.cluster = {static_cast<unsigned>(attributes.requiredClusterWidth),
                        static_cast<unsigned>(attributes.requiredClusterHeight),
                        static_cast<unsigned>(attributes.requiredClusterDepth)};
    }
    const unsigned threads = geometry.block.x * geometry.block.y * geometry.block.z;
    int blocks_per_sm = 0;
    const cudaError_t occupancy = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks_per_sm, geometry.func, static_cast<int>(threads), geometry.dynamic_shared_bytes);
    if (occupancy != cudaSuccess) {
      static_cast<void>(cudaGetLastError());
      problem = "cudaOccupancyMaxActiveBlocksPerMultiprocessor for kernel '" + launch.mangled +
                "': " + cudaGetErrorName(occupancy);
    } else if (m_max_threads_per_sm >= 32) {
      // Whole warps: a partial warp occupies a full warp slot.
      const double warps_per_block =
          static_cast<double>((threads + 31) / 32);  // NOLINT(bugprone-integer-division)
      const double max_warps_per_sm =
          static_cast<double>(m_max_threads_per_sm / 32);  // NOLINT(bugprone-integer-division)
      launch.theoretical_occupancy_pct = blocks_per_sm * warps_per_block / max_warps_per_sm * 100.0;
    }
  }

  const std::lock_guard<std::mutex> lock(m_mutex);
  if (!m_armed)
    return;
  launch.range_index = static_cast<int>(m_launches.size());
  launch.range_name = std::to_string(launch.range_index);  // replaced by the image's name after decoding
  m_launches.push_back(std::move(launch));
  if (!problem.empty() && m_first_problem.empty())
    m_first_problem = problem;
}

}  // namespace counterguard::detail
