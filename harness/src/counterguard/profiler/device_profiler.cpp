// SPDX-License-Identifier: Apache-2.0
// In-process CUPTI profiler on one device, auto range + kernel replay: what both CUPTI APIs share (the
// context, CUPTI's initialisation and device checks, the launch recorder, the configurations, the capture's
// steps). The counters come from a profiler_backend, one file per API: session_backend.cpp (the default) and
// range_profiler_backend.cpp (COUNTERGUARD_PROFILER_API=range).
#include "counterguard/profiler/device_profiler.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <cupti_version.h>

#include <map>
#include <memory>
#include <utility>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/core/driver_version.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/nvtx_range.hpp"
#include "counterguard/core/timeline.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/cupti/nvperf_host_library.hpp"
#include "counterguard/cupti/profiler_host.hpp"
#include "counterguard/cupti/profiler_session.hpp"
#include "detail/launch_recorder.hpp"
#include "detail/primary_context.hpp"
#include "detail/profiler_backend.hpp"

namespace counterguard {
namespace {

using cu_ctx_get_current = CUresult (*)(CUcontext*);
using cu_device_get = CUresult (*)(CUdevice*, int);

// Driver entry points through the runtime, so the binary does not link libcuda and starts (and reports
// "no GPU") on machines without a driver.
template <typename Function>
Function driver_entry_point(const char* symbol) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t status =
      cudaGetDriverEntryPointByVersion(symbol, &function, CUDART_VERSION, cudaEnableDefault, &found);
  if (status != cudaSuccess || found != cudaDriverEntryPointSuccess || function == nullptr) {
    static_cast<void>(cudaGetLastError());
    throw api_error(std::string("cudaGetDriverEntryPointByVersion(\"") + symbol + "\"): " +
                        (status != cudaSuccess ? cudaGetErrorName(status) : "symbol not found in the driver"),
                    static_cast<int>(status));
  }
  return reinterpret_cast<Function>(function);
}

void check_driver(CUresult status, const char* call) {
  if (status != CUDA_SUCCESS)
    throw api_error(std::string(call) + ": CUresult " + std::to_string(status), status);
}

const char* support_text(CUpti_Profiler_Support_Level level) {
  switch (level) {
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED:
      return "supported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED:
      return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED:
      return "unsupported";
    default:
      return "unknown";
  }
}

}  // namespace

struct device_profiler::state {
  device_description device;
  CUcontext context = nullptr;
  CUdevice cu_device = 0;
  bool cupti_initialized = false;
  std::vector<std::uint8_t> counter_availability;
  std::unique_ptr<detail::launch_recorder> recorder;
  std::unique_ptr<detail::profiler_backend> backend;
  std::map<std::vector<std::string>, detail::profiler_configuration> configurations;

  ~state() {
    backend.reset();
    configurations.clear();
    recorder.reset();
    if (cupti_initialized) {
      auto params = detail::cupti_params<CUpti_Profiler_DeInitialize_Params>(
          CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
      COUNTERGUARD_CUPTI_NOTHROW(cuptiProfilerDeInitialize(&params));
    }
  }

  // The capture begun by begin_capture, until end_capture or abandon_capture.
  struct open_capture {
    profile_capture capture;
    detail::profiler_configuration* config = nullptr;  // nullptr: launch attributes only, no counters
    std::unique_ptr<nvtx_range> marked;
    detail::capture_phases phases;
  };
  std::unique_ptr<open_capture> current;

  // Arms the recorder and opens the NVTX range that marks the work for ncu/nsys timelines (in auto-range
  // mode it does not shape ranges).
  void start_recording(const std::string& range_name) {
    recorder->arm();
    current->marked = std::make_unique<nvtx_range>(range_name);
  }

  // Closes the NVTX range and synchronises the device, so launch failures surface here, with the work still
  // identifiable, rather than in DecodeData.
  void finish_work() {
    current->marked.reset();
    COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());
  }

  void stop_recording_quietly() noexcept {
    try {
      static_cast<void>(recorder->disarm());
    } catch (...) {
    }
  }

  // The launches the recorder saw, with their attributes and the kernels of modules loaded meanwhile.
  void take_launches(profile_capture& capture) {
    capture.launches = recorder->disarm();
    capture.launch_attributes_known = recorder->attributes_known();
    capture.loaded_kernels = recorder->loaded_resources(capture.launches);
  }

  detail::profiler_configuration& configuration_for(const std::vector<std::string>& metrics) {
    const auto found = configurations.find(metrics);
    if (found != configurations.end())
      return found->second;
    detail::profiler_configuration config;
    config.host = std::make_unique<detail::profiler_host>(device.chip, counter_availability);
    try {
      config.host->add_metrics(metrics);
    } catch (const api_error&) {
      // Name the unknown metrics with suggestions when that is the reason; otherwise report CUPTI's error.
      static_cast<void>(metric_name_validator(device.chip).pass_count(metrics));
      throw;
    }
    config.image = config.host->config_image();
    config.passes = detail::config_pass_count(config.image);
    return configurations.emplace(metrics, std::move(config)).first->second;
  }
};

device_profiler::device_profiler(int device_ordinal) : m_state(std::make_unique<state>()) {
  state& s = *m_state;
  detail::open_primary_context(device_ordinal);
  timeline_mark("CUDA context open");
  check_driver(driver_entry_point<cu_ctx_get_current>("cuCtxGetCurrent")(&s.context), "cuCtxGetCurrent");
  check_driver(driver_entry_point<cu_device_get>("cuDeviceGet")(&s.cu_device, device_ordinal), "cuDeviceGet");

  // Under ncu/nsys this is where CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED comes (validation/h200.md,
  // "Two profilers, one GPU"). Perfworks loaded first: CUPTI opens it by name (nvperf_host_library.hpp).
  static_cast<void>(detail::nvperf_host());
  auto initialize =
      detail::cupti_params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerInitialize(&initialize));
  s.cupti_initialized = true;
  timeline_mark("CUPTI profiler initialised");

  auto supported = detail::cupti_params<CUpti_Profiler_DeviceSupported_Params>(
      CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  supported.cuDevice = s.cu_device;
  supported.api = CUPTI_PROFILER_RANGE_PROFILING;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerDeviceSupported(&supported));
  timeline_mark("CUPTI device support checked");
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    std::string why;
    const std::pair<const char*, CUpti_Profiler_Support_Level> parts[] = {
        {"architecture (needs compute capability 7.5 or newer)", supported.architecture},
        {"SLI (must be off)", supported.sli},
        {"vGPU (profiling must be enabled for the VM)", supported.vGpu},
        {"confidential computing (must be off)", supported.confidentialCompute},
        {"CMP (crypto-mining processors cannot profile)", supported.cmp},
        {"WSL", supported.wsl}};
    for (const auto& [what, level] : parts) {
      if (level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        why += (why.empty() ? "" : ", ") + std::string(what) + ": " + support_text(level);
      }
    }
    throw environment_error(environment_problem::unsupported_device,
                            "device " + std::to_string(device_ordinal) +
                                " cannot be profiled with the CUPTI range profiler (" + why +
                                "); use another GPU or change the configuration named");
  }

  auto chip =
      detail::cupti_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device_ordinal);
  COUNTERGUARD_CUPTI_CHECK(cuptiDeviceGetChipName(&chip));

  // Another process holding the counters shows up here as CUPTI_ERROR_HARDWARE_BUSY (validation/h200.md, "Two
  // profilers, one GPU").
  auto availability = detail::cupti_params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  availability.ctx = s.context;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&availability));
  s.counter_availability.resize(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = s.counter_availability.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&availability));
  timeline_mark("CUPTI counter availability read");

  cudaDeviceProp properties{};
  COUNTERGUARD_CUDA_CHECK(cudaGetDeviceProperties(&properties, device_ordinal));
  int sm_clock_khz = 0;
  int memory_clock_khz = 0;
  COUNTERGUARD_CUDA_CHECK(cudaDeviceGetAttribute(&sm_clock_khz, cudaDevAttrClockRate, device_ordinal));
  COUNTERGUARD_CUDA_CHECK(
      cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, device_ordinal));
  int driver_version = 0;
  int runtime_version = 0;
  COUNTERGUARD_CUDA_CHECK(cudaDriverGetVersion(&driver_version));
  COUNTERGUARD_CUDA_CHECK(cudaRuntimeGetVersion(&runtime_version));
  std::uint32_t cupti_version = 0;
  COUNTERGUARD_CUPTI_CHECK(cuptiGetVersion(&cupti_version));

  device_description& d = s.device;
  d.name = properties.name;
  d.chip = chip.pChipName != nullptr ? chip.pChipName : "";
  d.sm_count = properties.multiProcessorCount;
  d.compute_capability = properties.major * 10 + properties.minor;
  d.sm_clock_mhz = sm_clock_khz / 1000;
  d.memory_clock_mhz = memory_clock_khz / 1000;
  d.driver_version = driver_description(driver_version);
  d.cuda_runtime_version = cuda_version_text(runtime_version);
  d.cupti_version = std::to_string(cupti_version);  // CUPTI_API_VERSION, e.g. 130001
  timeline_mark("device described");

  // The process's one CUPTI subscriber (kernel names and attributes from the launch callbacks).
  s.recorder = std::make_unique<detail::launch_recorder>(properties.maxThreadsPerMultiProcessor,
                                                         properties.major * 10 + properties.minor);
  timeline_mark("launch callbacks subscribed");

  if (detail::session_api_chosen()) {
    s.backend = detail::make_session_backend(s.context, s.device.chip, s.counter_availability);
    timeline_mark("profiler session ready");
  } else {
    s.backend = detail::make_range_profiler_backend(s.context);
    timeline_mark("range profiler enabled");
  }
}

void device_profiler::reserve(const std::vector<std::vector<std::string>>& metric_sets, int max_launches) {
  state& s = *m_state;
  std::vector<std::vector<std::string>> collected;
  for (const auto& set : metric_sets) {
    if (!set.empty())
      collected.push_back(set);
  }
  if (!collected.empty())
    s.backend->reserve(collected, max_launches);
}

device_profiler::~device_profiler() = default;

const device_description& device_profiler::device() const {
  return m_state->device;
}

profile_capture device_profiler::profile(const std::vector<std::string>& raw_metrics,
                                         const std::string& range_name, const std::function<void()>& work,
                                         int max_launches) {
  begin_capture(raw_metrics, range_name, max_launches);
  try {
    work();
  } catch (...) {
    abandon_capture();
    throw;
  }
  profile_capture capture = end_capture();
  if (!capture.launch_attributes_known) {
    throw api_error("a kernel launch of '" + range_name +
                        "' could not be inspected (cudaFuncGetAttributes and the driver both refused it)",
                    0);
  }
  return capture;
}

bool device_profiler::capturing() const {
  return m_state->current != nullptr;
}

void device_profiler::begin_capture(const std::vector<std::string>& raw_metrics,
                                    const std::string& range_name, int max_launches) {
  state& s = *m_state;
  if (s.current != nullptr)
    throw internal_error("device_profiler::begin_capture: a capture is already open");
  if (!raw_metrics.empty() && max_launches < 1) {
    throw input_error({}, "max_launches", "is " + std::to_string(max_launches),
                      "at least 1 range per capture");
  }
  s.current = std::make_unique<state::open_capture>();
  state::open_capture& current = *s.current;
  current.capture.image.chip = s.device.chip;
  try {
    if (raw_metrics.empty()) {
      // Only launch attributes are wanted (registers, occupancy): record the launches, collect no counters.
      s.start_recording(range_name);
      return;
    }
    detail::profiler_configuration& config = s.configuration_for(raw_metrics);
    current.config = &config;
    current.capture.passes = config.passes;
    s.backend->begin_capture(config, raw_metrics, max_launches, current.capture.image.bytes, current.phases);
    s.start_recording(range_name);
  } catch (...) {
    s.current.reset();
    throw;
  }
}

void device_profiler::abandon_capture() noexcept {
  state& s = *m_state;
  if (s.current == nullptr)
    return;
  s.current->marked.reset();
  if (s.current->config != nullptr)
    s.backend->abandon_capture();
  s.stop_recording_quietly();
  s.current.reset();
}

profile_capture device_profiler::end_capture() {
  state& s = *m_state;
  if (s.current == nullptr)
    throw internal_error("device_profiler::end_capture: no capture is open");
  try {
    s.finish_work();
  } catch (...) {
    abandon_capture();
    throw;
  }
  const std::unique_ptr<state::open_capture> current = std::move(s.current);
  profile_capture& capture = current->capture;
  if (current->config == nullptr) {
    s.take_launches(capture);
    return std::move(capture);
  }
  s.backend->work_finished(current->phases);
  try {
    capture.launches = s.recorder->disarm();
  } catch (...) {
    s.backend->abandon_capture();
    throw;
  }
  capture.launch_attributes_known = s.recorder->attributes_known();
  capture.loaded_kernels = s.recorder->loaded_resources(capture.launches);
  if (!s.backend->end_capture(capture, current->phases))
    return std::move(capture);
  current->phases.mark("range_names");
  capture.phase_seconds = current->phases.take();
  return std::move(capture);
}

}  // namespace counterguard
