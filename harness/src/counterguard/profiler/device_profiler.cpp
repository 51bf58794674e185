// SPDX-License-Identifier: Apache-2.0
// In-process CUPTI profiler, auto range + kernel replay: by default through CUPTI's session API
// (cupti/profiler_session: one session across configurations, validation/h200.md "Findings"), otherwise
// (COUNTERGUARD_PROFILER_API=range) through the Range Profiler (cupti_range_profiler.h, CUPTI 13.0), whose
// call sequence is below.
//
// Call sequence (each step run on an H200, driver 580.159, CUDA 13.0):
//   cudaFree(0), cuCtxGetCurrent, cuptiProfilerInitialize
//   cuptiProfilerDeviceSupported(api = RANGE_PROFILING)
//   cuptiDeviceGetChipName, cuptiProfilerGetCounterAvailability (size, buffer)
//   host object: Initialize, ConfigAddMetrics, GetConfigImage, GetNumOfPasses
//   cuptiRangeProfilerEnable, GetCounterDataSize, CounterDataImageInitialize
//   cuptiRangeProfilerSetConfig (AutoRange, KernelReplay, every field set)
//   Start / launches / Stop until isAllPassSubmitted
//   DecodeData (numOfRangeDropped)
//   runtime launch callbacks, symbolName at API entry (cudaLaunchKernel_v7000)
// First written from the headers, since run by every built-in case under this API with the session API's
// exact values (validation/gpu_checks.sh api):
//   - fetching cuCtxGetCurrent/cuDeviceGet through cudaGetDriverEntryPointByVersion (no libcuda link);
//   - keeping one range profiler enabled across cases and calling SetConfig again with another config;
//   - CUDA 13's __cudaLaunchKernel callbacks (what <<<>>> uses) and their parameter layout;
//   - cudaFuncGetAttributes / the occupancy query from inside a launch callback;
//   - range names read back with cuptiProfilerHostGetRangeName right after DecodeData.
#include "counterguard/profiler/device_profiler.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <cupti_version.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <utility>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/core/driver_version.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/nvtx_range.hpp"
#include "counterguard/core/timeline.hpp"
#include "counterguard/cupti/counter_data_image_setup.hpp"
#include "counterguard/cupti/counter_data_ranges.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/cupti/nvperf_host_library.hpp"
#include "counterguard/cupti/profiler_host.hpp"
#include "counterguard/cupti/profiler_session.hpp"
#include "detail/launch_recorder.hpp"
#include "detail/primary_context.hpp"

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

// The image's own range names ("0", "1", ... in launch order, §3) replace the recorder's placeholders;
// returns how many ranges the image holds.
std::size_t name_ranges(profile_capture& capture) {
  const std::size_t ranges = detail::counter_data_range_count(capture.image.bytes);
  for (std::size_t index = 0; index < ranges && index < capture.launches.size(); ++index) {
    if (std::string name = detail::counter_data_range_name(capture.image.bytes, index); !name.empty())
      capture.launches[index].range_name = std::move(name);
  }
  return ranges;
}

// A metric set's host object and configuration, built once per set (about 2 ms each, more for many metrics).
struct configuration {
  std::unique_ptr<detail::profiler_host> host;
  std::vector<std::uint8_t> image;
  int passes = 0;
  // Counter-data images as CounterDataImageInitialize left them, by the ranges they hold, for the Enable
  // numbered `pristine_enable` (Initialize takes the enabled profiler object): a case starts from a copy
  // instead of initialising its own (about 2.5 ms a case on the H200). The injection does the same per
  // launch, measured on the H200 with the same values as initialising each time (validation/exec_checks.sh
  // setups).
  std::map<int, std::vector<std::uint8_t>> pristine;
  std::uint64_t pristine_enable = 0;
};

}  // namespace

struct device_profiler::state {
  device_description device;
  CUcontext context = nullptr;
  CUdevice cu_device = 0;
  bool cupti_initialized = false;
  std::vector<std::uint8_t> counter_availability;
  std::unique_ptr<detail::launch_recorder> recorder;
  CUpti_RangeProfiler_Object* profiler = nullptr;
  std::unique_ptr<detail::profiler_session> session;  // with the session API instead of `profiler`
  std::map<std::vector<std::string>, configuration> configurations;

  ~state() {
    session.reset();
    if (profiler != nullptr) {
      auto params = detail::cupti_params<CUpti_RangeProfiler_Disable_Params>(
          CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
      params.pRangeProfilerObject = profiler;
      COUNTERGUARD_CUPTI_NOTHROW(cuptiRangeProfilerDisable(&params));
    }
    configurations.clear();
    recorder.reset();
    if (cupti_initialized) {
      auto params = detail::cupti_params<CUpti_Profiler_DeInitialize_Params>(
          CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
      COUNTERGUARD_CUPTI_NOTHROW(cuptiProfilerDeInitialize(&params));
    }
  }

  // The configuration the enabled range profiler collects. Seen on the H200: SetConfig with another
  // config image on a profiler that is already enabled keeps collecting the first configuration's
  // counters (the others evaluate to NaN), so a new metric set re-enables the profiler.
  const void* applied_configuration = nullptr;

  std::uint64_t enables = 0;  // how many times the range profiler was enabled

  void enable() {
    auto params = detail::cupti_params<CUpti_RangeProfiler_Enable_Params>(
        CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    params.ctx = context;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerEnable(&params));
    profiler = params.pRangeProfilerObject;
    ++enables;
  }

  void disable() {
    auto params = detail::cupti_params<CUpti_RangeProfiler_Disable_Params>(
        CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    params.pRangeProfilerObject = profiler;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerDisable(&params));
    profiler = nullptr;
  }

  // The capture begun by begin_capture, until end_capture or abandon_capture.
  struct open_capture {
    profile_capture capture;
    configuration* config = nullptr;  // nullptr: launch attributes only, no counters
    std::unique_ptr<nvtx_range> marked;
    std::chrono::steady_clock::time_point mark;
    std::map<std::string, double> phases;

    void phase(const char* name) {
      const auto now = std::chrono::steady_clock::now();
      phases[name] += std::chrono::duration<double>(now - mark).count();
      mark = now;
    }
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

  void range_profiler_stop_quietly() noexcept {
    auto stop =
        detail::cupti_params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = profiler;
    COUNTERGUARD_CUPTI_NOTHROW(cuptiRangeProfilerStop(&stop));
  }

  // Re-enables the range profiler when `config` is not the one it was last set up with.
  void apply(const void* config) {
    if (applied_configuration != nullptr && applied_configuration != config) {
      disable();
      enable();
    }
    applied_configuration = config;
  }

  configuration& configuration_for(const std::vector<std::string>& metrics) {
    const auto found = configurations.find(metrics);
    if (found != configurations.end())
      return found->second;
    configuration config;
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

  // Under ncu/nsys this is where CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED comes (§3). Perfworks loaded
  // first: CUPTI opens it by name (nvperf_host_library.hpp).
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

  // Another process holding the counters shows up here as CUPTI_ERROR_HARDWARE_BUSY (§3).
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

  // The process's one CUPTI subscriber (§3: kernel names from runtime launch callbacks).
  s.recorder = std::make_unique<detail::launch_recorder>(properties.maxThreadsPerMultiProcessor,
                                                         properties.major * 10 + properties.minor);
  timeline_mark("launch callbacks subscribed");

  if (detail::session_api_chosen()) {
    s.session = std::make_unique<detail::profiler_session>(s.context, s.device.chip, s.counter_availability);
    timeline_mark("profiler session ready");
  } else {
    s.enable();
    timeline_mark("range profiler enabled");
  }
}

void device_profiler::reserve(const std::vector<std::vector<std::string>>& metric_sets, int max_launches) {
  state& s = *m_state;
  if (s.session == nullptr)
    return;
  std::vector<std::vector<std::string>> collected;
  for (const auto& set : metric_sets) {
    if (!set.empty())
      collected.push_back(set);
  }
  if (!collected.empty())
    s.session->reserve(collected, max_launches);
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
  current.mark = std::chrono::steady_clock::now();
  current.capture.image.chip = s.device.chip;
  try {
    if (raw_metrics.empty()) {
      // Only launch attributes are wanted (registers, occupancy): record the launches, collect no counters.
      s.start_recording(range_name);
      return;
    }
    configuration& config = s.configuration_for(raw_metrics);
    current.config = &config;
    current.capture.passes = config.passes;
    if (s.session != nullptr) {
      current.phase("configure");
      bool restarted = false;
      s.session->begin_capture(config.image, raw_metrics, max_launches, restarted);
      current.phase(restarted ? "session_begin" : "enable");
      s.start_recording(range_name);
      return;
    }
    s.apply(&config);
    current.phase("configure");
    if (config.pristine_enable != s.enables) {
      config.pristine.clear();
      config.pristine_enable = s.enables;
    }
    std::vector<std::uint8_t>& pristine = config.pristine[max_launches];
    if (pristine.empty())  // the counter-data image for up to max_launches ranges (§2.5)
      pristine = detail::initialized_counter_data_image(s.profiler, raw_metrics, max_launches);
    current.capture.image.bytes = pristine;
    current.phase("image_initialize");

    // Every field set (§2.6). Kernel replay works only with auto range (§3); CUPTI restores device memory
    // between passes, so non-idempotent kernels measure exactly.
    auto set_config = detail::cupti_params<CUpti_RangeProfiler_SetConfig_Params>(
        CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    set_config.pRangeProfilerObject = s.profiler;
    set_config.configSize = config.image.size();
    set_config.pConfig = config.image.data();
    set_config.counterDataImageSize = current.capture.image.bytes.size();
    set_config.pCounterDataImage = current.capture.image.bytes.data();
    set_config.range = CUPTI_AutoRange;
    set_config.replayMode = CUPTI_KernelReplay;
    set_config.maxRangesPerPass = static_cast<std::size_t>(max_launches);
    set_config.numNestingLevels = 1;
    set_config.minNestingLevel = 1;
    set_config.passIndex = 0;
    set_config.targetNestingLevel = 1;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerSetConfig(&set_config));
    current.phase("set_config");

    auto start =
        detail::cupti_params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = s.profiler;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerStart(&start));
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
  if (s.current->config != nullptr) {
    if (s.session != nullptr)
      s.session->abandon_capture();
    else
      s.range_profiler_stop_quietly();
  }
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
    capture.launches = s.recorder->disarm();
    capture.launch_attributes_known = s.recorder->attributes_known();
    capture.loaded_kernels = s.recorder->loaded_resources(capture.launches);
    return std::move(capture);
  }
  if (s.session != nullptr) {
    current->phase("launch");
    try {
      capture.launches = s.recorder->disarm();
    } catch (...) {
      s.session->abandon_capture();
      throw;
    }
    capture.launch_attributes_known = s.recorder->attributes_known();
    capture.loaded_kernels = s.recorder->loaded_resources(capture.launches);
    capture.image.bytes = s.session->end_capture();
    current->phase("collect");
    const std::size_t ranges = name_ranges(capture);
    capture.dropped_ranges =
        capture.launches.size() > ranges ? static_cast<int>(capture.launches.size() - ranges) : 0;
    current->phase("range_names");
    capture.phase_seconds = std::move(current->phases);
    return std::move(capture);
  }

  auto stop =
      detail::cupti_params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = s.profiler;
  try {
    capture.launches = s.recorder->disarm();
  } catch (...) {
    s.range_profiler_stop_quietly();
    throw;
  }
  capture.launch_attributes_known = s.recorder->attributes_known();
  capture.loaded_kernels = s.recorder->loaded_resources(capture.launches);
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerStop(&stop));
  current->phase("replay");
  if (stop.isAllPassSubmitted == 0) {
    // With kernel replay CUPTI replays each launch itself, so one Start/Stop round submits every pass; work
    // that launched nothing has nothing to decode.
    if (capture.launches.empty()) {
      capture.image.bytes.clear();
      return std::move(capture);
    }
    throw api_error("cuptiRangeProfilerStop: passes still pending after one round of kernel replay (" +
                        std::to_string(capture.passes) + " passes expected)",
                    0);
  }

  // Synchronises and fills the image (§2.8).
  auto decode = detail::cupti_params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = s.profiler;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerDecodeData(&decode));
  current->phase("decode");
  capture.dropped_ranges = static_cast<int>(decode.numOfRangeDropped);

  static_cast<void>(name_ranges(capture));
  current->phase("range_names");
  capture.phase_seconds = std::move(current->phases);
  return std::move(capture);
}

}  // namespace counterguard
