// SPDX-License-Identifier: Apache-2.0
// The CUPTI Range Profiler driven from launch callbacks, with the call sequence of the in-process profiler
// (profiler/device_profiler.cpp): initialize, device supported, chip name, counter availability, host
// configuration, Enable, counter-data image, SetConfig (auto range, kernel replay), Start, launch, Stop until
// all passes are submitted, DecodeData. Differences here: the driver API instead of the runtime for the
// context and device queries; Start in the launch API's entry callback and Stop/DecodeData in its exit
// callback (the CUPTI profiling_injection sample starts its sessions from the same cuLaunchKernel entry
// callback). On the H200 this measures what `run` and ncu measure (validation/exec_checks.sh launch
// crosscheck).
//
// Reuse between launches (injection_options.hpp, COUNTERGUARD_INJECTION_SETUP), each measuring on the H200
// the same values as "full" (validation/exec_checks.sh setups): "image" initialises the counter-data image
// once per configuration and Enable and starts each launch from a copy of those pristine bytes (the CUPTI
// samples initialise a fresh image per session; a copy of initialised bytes is assumed equivalent, since the
// image is plain bytes that DecodeData fills and that evaluate anywhere); "config" also keeps the SetConfig
// of the launch before while the object, configuration and buffer stay the same (the samples call SetConfig
// once and then Start/Stop for each pass of one session; across sessions after DecodeData it is unverified: a
// launch that then left no range or dropped one would show as an error of its cases, never as other values).
#include "context_profiler.hpp"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <cupti_version.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "counterguard/core/driver_version.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/cupti/counter_data_image_setup.hpp"
#include "counterguard/cupti/counter_data_ranges.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/profiler_host.hpp"
#include "driver_check.hpp"
#include "injection_trace.hpp"

namespace counterguard::injection {
namespace {

using detail::cupti_params;

// Launches on two contexts (two threads, two GPUs) may set their profilers up at once.
std::mutex g_profiler_api_mutex;
bool g_profiler_api_initialized = false;

using clock_type = std::chrono::steady_clock;

double milliseconds_since(clock_type::time_point from, clock_type::time_point to = clock_type::now()) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

int attribute(CUdevice_attribute which, CUdevice device) {
  int value = 0;
  check_driver(cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute");
  return value;
}

}  // namespace

struct context_profiler::configuration {
  std::unique_ptr<detail::profiler_host> host;
  std::vector<std::string> metrics;
  std::vector<std::uint8_t> image;
  int passes = 0;
  // The counter-data image as Initialize left it, for the Enable numbered `pristine_enable` (setup "image"
  // and "config"); each launch starts from a copy.
  std::vector<std::uint8_t> pristine;
  std::uint64_t pristine_enable = 0;
};

void initialize_profiler_api() {
  const std::lock_guard<std::mutex> lock(g_profiler_api_mutex);
  if (g_profiler_api_initialized)
    return;
  // Under ncu/nsys this is where CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED comes (seen on the H200).
  auto params = cupti_params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerInitialize(&params));
  g_profiler_api_initialized = true;
}

void deinitialize_profiler_api() noexcept {
  const std::lock_guard<std::mutex> lock(g_profiler_api_mutex);
  if (!g_profiler_api_initialized)
    return;
  g_profiler_api_initialized = false;
  auto params =
      cupti_params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
  COUNTERGUARD_CUPTI_NOTHROW(cuptiProfilerDeInitialize(&params));
}

context_profiler::context_profiler(CUcontext context, setup_reuse reuse)
    : m_context(context), m_reuse(reuse) {
  const auto started = clock_type::now();
  check_driver(cuCtxGetDevice(&m_cu_device), "cuCtxGetDevice");
  initialize_profiler_api();
  const auto initialized = clock_type::now();

  auto supported =
      cupti_params<CUpti_Profiler_DeviceSupported_Params>(CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  supported.cuDevice = m_cu_device;
  supported.api = CUPTI_PROFILER_RANGE_PROFILING;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerDeviceSupported(&supported));
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    throw environment_error(environment_problem::unsupported_device,
                            "device " + std::to_string(m_cu_device) +
                                " cannot be profiled with the CUPTI range profiler (architecture older than "
                                "compute capability 7.5, vGPU without profiling, MIG, WSL, confidential "
                                "computing or a CMP device)");
  }

  auto chip = cupti_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(m_cu_device);
  COUNTERGUARD_CUPTI_CHECK(cuptiDeviceGetChipName(&chip));

  // Another process holding the counters shows up here as CUPTI_ERROR_HARDWARE_BUSY (seen on the H200).
  auto availability = cupti_params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  availability.ctx = m_context;
  const auto supported_and_named = clock_type::now();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&availability));
  m_counter_availability.resize(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = m_counter_availability.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&availability));
  const auto available = clock_type::now();

  char name[256] = {};
  check_driver(cuDeviceGetName(name, sizeof(name), m_cu_device), "cuDeviceGetName");
  int driver_version = 0;
  check_driver(cuDriverGetVersion(&driver_version), "cuDriverGetVersion");
  std::uint32_t cupti_version = 0;
  COUNTERGUARD_CUPTI_CHECK(cuptiGetVersion(&cupti_version));
  m_device.name = name;
  m_device.chip = chip.pChipName != nullptr ? chip.pChipName : "";
  m_device.sm_count = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, m_cu_device);
  m_device.compute_capability = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, m_cu_device) * 10 +
                                attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, m_cu_device);
  m_device.sm_clock_mhz = attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, m_cu_device) / 1000;
  m_device.memory_clock_mhz = attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, m_cu_device) / 1000;
  m_max_threads_per_sm = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, m_cu_device);
  m_device.driver_version = driver_description(driver_version);
  // The program brings its own runtime, whose version the driver API cannot see: the driver's CUDA version
  // stands in (its major version is what the GPU key uses).
  m_device.cuda_runtime_version = cuda_version_text(driver_version);
  m_device.cupti_version = std::to_string(cupti_version);
  if (detail::session_api_chosen())
    m_session = std::make_unique<detail::profiler_session>(m_context, m_device.chip, m_counter_availability);
  if (tracing()) {
    char line[256];
    std::snprintf(
        line, sizeof(line),
        "context profiler: profiler API initialisation %.1f ms, device supported and chip name %.1f "
        "ms, counter availability %.1f ms, device queries %.1f ms",
        milliseconds_since(started, initialized), milliseconds_since(initialized, supported_and_named),
        milliseconds_since(supported_and_named, available), milliseconds_since(available));
    trace(line);
  }
}

context_profiler::~context_profiler() {
  release();
}

void context_profiler::release() noexcept {
  abandon();
  if (m_session != nullptr)
    m_session->close();
  if (m_profiler != nullptr) {
    auto params =
        cupti_params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    params.pRangeProfilerObject = m_profiler;
    COUNTERGUARD_CUPTI_NOTHROW(cuptiRangeProfilerDisable(&params));
    m_profiler = nullptr;
  }
  m_applied = nullptr;
  m_set_config = nullptr;
}

context_profiler::configuration& context_profiler::configuration_for(
    const std::vector<std::string>& metrics) {
  const auto found = m_configurations.find(metrics);
  if (found != m_configurations.end())
    return *found->second;
  const auto started = std::chrono::steady_clock::now();
  auto config = std::make_unique<configuration>();
  config->host = std::make_unique<detail::profiler_host>(m_device.chip, m_counter_availability);
  config->host->add_metrics(metrics);
  config->metrics = metrics;
  config->image = config->host->config_image();
  config->passes = detail::config_pass_count(config->image);
  trace("configuration of " + std::to_string(metrics.size()) + " counters (" +
        std::to_string(config->passes) + " passes) made in " +
        std::to_string(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count()) +
        " ms");
  return *m_configurations.emplace(metrics, std::move(config)).first->second;
}

void context_profiler::prepare(const std::vector<std::string>& raw_metrics) {
  configuration& config = configuration_for(raw_metrics);
  if (m_session != nullptr) {
    const auto started = clock_type::now();
    m_session->reserve({raw_metrics}, 1);
    if (tracing())
      trace("prepare (session API): session begun in " + std::to_string(milliseconds_since(started)) + " ms");
    return;
  }
  arm(config, true);
}

void context_profiler::begin(const std::vector<std::string>& raw_metrics) {
  configuration& config = configuration_for(raw_metrics);
  if (m_session != nullptr) {
    const auto started = clock_type::now();
    bool restarted = false;
    m_session->begin_capture(config.image, raw_metrics, 1, restarted);
    m_started = true;
    m_current = &config;
    if (tracing()) {
      trace(std::string("begin (session API): ") + (restarted ? "session begun, " : "") + "enabled in " +
            std::to_string(milliseconds_since(started)) + " ms");
    }
    return;
  }
  arm(config, false);
  const auto started = clock_type::now();
  auto start = cupti_params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  start.pRangeProfilerObject = m_profiler;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerStart(&start));
  m_started = true;
  m_current = &config;
  if (tracing())
    trace("begin: Start " + std::to_string(milliseconds_since(started)) + " ms");
}

void context_profiler::arm(configuration& config, bool warm_up) {
  const auto started = clock_type::now();
  const auto enable = [this] {
    auto params =
        cupti_params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    params.ctx = m_context;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerEnable(&params));
    m_profiler = params.pRangeProfilerObject;
    ++m_enables;
  };
  if (m_profiler == nullptr) {
    // Enabled until another process of the program waits for the counters (release()).
    enable();
    m_applied = nullptr;
  }
  // Seen on the H200 (device_profiler.cpp): SetConfig with another configuration on an enabled profiler keeps
  // collecting the first one's counters, so a new metric set re-enables it.
  if (m_applied != nullptr && m_applied != &config) {
    auto disable =
        cupti_params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    disable.pRangeProfilerObject = m_profiler;
    m_profiler = nullptr;
    m_set_config = nullptr;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerDisable(&disable));
    enable();
  }
  m_applied = &config;
  const auto enabled = clock_type::now();
  if (warm_up && m_reuse == setup_reuse::none)
    return;  // "full": the image and SetConfig come at each launch, as the samples do them

  if (m_reuse == setup_reuse::none) {
    m_image = detail::initialized_counter_data_image(m_profiler, config.metrics, 1);
  } else {
    if (config.pristine.empty() || config.pristine_enable != m_enables) {
      config.pristine = detail::initialized_counter_data_image(m_profiler, config.metrics, 1);
      config.pristine_enable = m_enables;
    }
    if (m_image.size() == config.pristine.size())
      std::copy(config.pristine.begin(), config.pristine.end(), m_image.begin());  // the same buffer
    else
      m_image = config.pristine;
  }
  const auto imaged = clock_type::now();

  const bool set_config = m_reuse != setup_reuse::config || m_set_enable != m_enables ||
                          m_set_config != &config || m_set_image != m_image.data();
  if (set_config) {
    auto params =
        cupti_params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    params.pRangeProfilerObject = m_profiler;
    params.configSize = config.image.size();
    params.pConfig = config.image.data();
    params.counterDataImageSize = m_image.size();
    params.pCounterDataImage = m_image.data();
    params.range = CUPTI_AutoRange;
    params.replayMode = CUPTI_KernelReplay;
    params.maxRangesPerPass = 1;
    params.numNestingLevels = 1;
    params.minNestingLevel = 1;
    params.passIndex = 0;
    params.targetNestingLevel = 1;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerSetConfig(&params));
    m_set_enable = m_enables;
    m_set_config = &config;
    m_set_image = m_image.data();
  }
  if (tracing()) {
    char line[256];
    std::snprintf(line, sizeof(line),
                  "%s (setup %s): enable %.2f ms, counter-data image %.2f ms, SetConfig %s",
                  warm_up ? "prepare" : "begin", setup_reuse_name(m_reuse),
                  milliseconds_since(started, enabled), milliseconds_since(enabled, imaged),
                  set_config ? (std::to_string(milliseconds_since(imaged)) + " ms").c_str() : "kept");
    trace(line);
  }
}

launch_capture context_profiler::end() {
  if (!m_started || m_current == nullptr)
    throw api_error("the range profiler was not started for this launch", 0);
  const configuration& config = *m_current;
  m_current = nullptr;
  m_started = false;
  if (m_session != nullptr)
    return session_capture(config);
  auto stop = cupti_params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = m_profiler;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerStop(&stop));
  if (stop.isAllPassSubmitted == 0) {
    throw api_error("cuptiRangeProfilerStop: kernel replay left passes pending after the launch (" +
                        std::to_string(config.passes) + " passes needed); the launch is not measured",
                    0);
  }
  auto decode =
      cupti_params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = m_profiler;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerDecodeData(&decode));

  if (detail::counter_data_range_count(m_image) == 0)
    throw api_error("the launch left no profiling range (it failed to launch)", 0);

  launch_capture capture;
  capture.image.chip = m_device.chip;
  if (m_reuse == setup_reuse::none) {
    capture.image.bytes = std::move(m_image);
    m_image.clear();
  } else {
    capture.image.bytes = m_image;  // the buffer stays where SetConfig was told it is
  }
  capture.passes = config.passes;
  capture.dropped_ranges = static_cast<int>(decode.numOfRangeDropped);
  return capture;
}

// The launch's image from the session; an error when the launch left no range (it failed to launch).
launch_capture context_profiler::session_capture(const configuration& config) {
  launch_capture capture;
  capture.image.chip = m_device.chip;
  capture.image.bytes = m_session->end_capture();
  if (detail::counter_data_range_count(capture.image.bytes) == 0)
    throw api_error("the launch left no profiling range (it failed to launch)", 0);
  capture.passes = config.passes;
  return capture;
}

void context_profiler::abandon() noexcept {
  m_set_config = nullptr;  // after a failed launch, the next one calls SetConfig again in every setup
  if (!m_started)
    return;
  m_started = false;
  m_current = nullptr;
  if (m_session != nullptr) {
    m_session->abandon_capture();
    return;
  }
  auto stop = cupti_params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = m_profiler;
  COUNTERGUARD_CUPTI_NOTHROW(cuptiRangeProfilerStop(&stop));
}

}  // namespace counterguard::injection
