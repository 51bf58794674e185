// SPDX-License-Identifier: Apache-2.0
// Per-instruction counters through CUPTI's SASS metrics API on the primary context of one device: CUDA
// and CUPTI set up here (cudaFree(0), cuCtxGetCurrent, cuptiProfilerInitialize, cuptiProfilerDeviceSupported
// with api = SASS_METRICS, cuptiDeviceGetChipName, the chip's metric list), each collection a
// sass_metrics_session around the work, synchronised with the runtime.
#include "counterguard/profiler/sass_metrics_collector.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <fmt/format.h>

#include <cstdint>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/nvperf_host_library.hpp"
#include "counterguard/profiler/sass_metrics_session.hpp"
#include "detail/primary_context.hpp"

namespace counterguard {
namespace {

using cu_ctx_get_current = CUresult (*)(CUcontext*);

// cuCtxGetCurrent through the runtime, so the binary does not link libcuda (as device_profiler.cpp does).
CUcontext current_context() {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t status = cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &function, CUDART_VERSION,
                                                              cudaEnableDefault, &found);
  if (status != cudaSuccess || found != cudaDriverEntryPointSuccess || function == nullptr) {
    static_cast<void>(cudaGetLastError());
    throw api_error("cudaGetDriverEntryPointByVersion(\"cuCtxGetCurrent\") failed", static_cast<int>(status));
  }
  CUcontext context = nullptr;
  const CUresult result = reinterpret_cast<cu_ctx_get_current>(function)(&context);
  if (result != CUDA_SUCCESS)
    throw api_error("cuCtxGetCurrent: CUresult " + std::to_string(result), result);
  return context;
}

}  // namespace

struct sass_metrics_collector::state {
  device_description device;
  int ordinal = 0;
  CUcontext context = nullptr;
  bool cupti_initialized = false;
  std::vector<sass_metric_details> available;
  std::FILE* trace = nullptr;

  template <typename... Arguments>
  void note(fmt::format_string<Arguments...> format, Arguments&&... arguments) const {
    if (trace == nullptr)
      return;
    std::fputs(("[blame] " + fmt::format(format, std::forward<Arguments>(arguments)...) + "\n").c_str(),
               trace);
    std::fflush(trace);
  }

  // Traces a CUPTI call's result and throws for a failure, naming the call.
  void check(CUptiResult status, const char* call) const {
    note("{} -> {}", call, detail::cupti_result_name(status));
    if (status != CUPTI_SUCCESS)
      detail::throw_cupti_error(status, call);
  }

  ~state() {
    if (cupti_initialized) {
      auto params = detail::cupti_params<CUpti_Profiler_DeInitialize_Params>(
          CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
      COUNTERGUARD_CUPTI_NOTHROW(cuptiProfilerDeInitialize(&params));
    }
  }
};

sass_metrics_collector::sass_metrics_collector(int device_ordinal, std::FILE* trace)
    : m_state(std::make_unique<state>()) {
  state& s = *m_state;
  s.trace = trace;
  detail::open_primary_context(device_ordinal);
  s.context = current_context();
  s.note("device {}, context {}", device_ordinal, static_cast<void*>(s.context));

  static_cast<void>(detail::nvperf_host());  // CUPTI opens it by name (nvperf_host_library.hpp)
  auto initialize =
      detail::cupti_params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  s.check(cuptiProfilerInitialize(&initialize), "cuptiProfilerInitialize");
  s.cupti_initialized = true;

  auto supported = detail::cupti_params<CUpti_Profiler_DeviceSupported_Params>(
      CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  supported.cuDevice = device_ordinal;
  supported.api = CUPTI_PROFILER_SASS_METRICS;
  s.check(cuptiProfilerDeviceSupported(&supported), "cuptiProfilerDeviceSupported(SASS_METRICS)");
  s.note(
      "SASS metrics supported: {} (architecture {}, sli {}, vGpu {}, confidentialCompute {}, cmp {}, wsl {}; "
      "1 = supported)",
      static_cast<int>(supported.isSupported), static_cast<int>(supported.architecture),
      static_cast<int>(supported.sli), static_cast<int>(supported.vGpu),
      static_cast<int>(supported.confidentialCompute), static_cast<int>(supported.cmp),
      static_cast<int>(supported.wsl));
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    throw environment_error(environment_problem::unsupported_device,
                            "device " + std::to_string(device_ordinal) +
                                " cannot collect CUPTI SASS metrics (cuptiProfilerDeviceSupported says no; "
                                "run with --trace for the reasons); blame needs compute capability 7.0+");
  }

  auto chip =
      detail::cupti_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device_ordinal);
  s.check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");

  cudaDeviceProp properties{};
  COUNTERGUARD_CUDA_CHECK(cudaGetDeviceProperties(&properties, device_ordinal));
  s.device.name = properties.name;
  s.device.chip = chip.pChipName != nullptr ? chip.pChipName : "";
  s.ordinal = device_ordinal;
  s.device.sm_count = properties.multiProcessorCount;
  s.device.compute_capability = properties.major * 10 + properties.minor;
  s.note("{}, chip {}, compute capability {}", s.device.name, s.device.chip, s.device.compute_capability);

  s.available = list_sass_metrics(s.device.chip, s.trace);
}

sass_metrics_collector::~sass_metrics_collector() = default;

const device_description& sass_metrics_collector::device() const {
  return m_state->device;
}

const std::vector<sass_metric_details>& sass_metrics_collector::available_metrics() const {
  return m_state->available;
}

std::vector<std::string> sass_metrics_collector::available_metric_names() const {
  std::vector<std::string> names;
  for (const auto& metric : m_state->available)
    names.push_back(metric.name);
  return names;
}

sass_metrics_capture sass_metrics_collector::collect(const std::vector<sass_metric_choice>& metrics,
                                                     const std::function<void()>& work) {
  state& s = *m_state;
  sass_metrics_session session(s.context, static_cast<std::uint32_t>(s.ordinal), s.device.chip, metrics,
                               s.trace);
  work();
  COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());
  s.note("work done, device synchronised");
  return session.finish();
}

}  // namespace counterguard
