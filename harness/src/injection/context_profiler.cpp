// The CUPTI Range Profiler driven from launch callbacks, with the call sequence gpu-facts.md verified on an
// H200 for the in-process profiler (profiler/range_profiler.cpp): initialize, device supported, chip name,
// counter availability, host configuration, Enable, counter-data image, SetConfig (auto range, kernel
// replay), Start, launch, Stop until all passes are submitted, DecodeData. Differences here, NOT verified on
// a GPU: driver API instead of the runtime for the context and device queries; Start in the launch API's
// entry callback and Stop/DecodeData in its exit callback (the CUPTI profiling_injection sample starts its
// sessions from the same cuLaunchKernel entry callback).
#include "context_profiler.hpp"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <cupti_version.h>

#include <chrono>
#include <cstdlib>

#include "counterguard/core/driver_version.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/profiler_host.hpp"
#include "driver_check.hpp"
#include "injection_trace.hpp"

namespace counterguard::injection {
namespace {

using detail::cupti_params;

bool g_profiler_api_initialized = false;

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
};

void initialize_profiler_api() {
  if (g_profiler_api_initialized)
    return;
  // Under ncu/nsys this is where CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED comes (gpu-facts §3).
  auto params = cupti_params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerInitialize(&params));
  g_profiler_api_initialized = true;
}

void deinitialize_profiler_api() noexcept {
  if (!g_profiler_api_initialized)
    return;
  g_profiler_api_initialized = false;
  auto params =
      cupti_params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
  COUNTERGUARD_CUPTI_NOTHROW(cuptiProfilerDeInitialize(&params));
}

context_profiler::context_profiler(CUcontext context) : m_context(context) {
  check_driver(cuCtxGetDevice(&m_cu_device), "cuCtxGetDevice");
  initialize_profiler_api();

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

  // Another process holding the counters shows up here as CUPTI_ERROR_HARDWARE_BUSY (gpu-facts §3).
  auto availability = cupti_params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  availability.ctx = m_context;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&availability));
  m_counter_availability.resize(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = m_counter_availability.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&availability));

  char name[256] = {};
  check_driver(cuDeviceGetName(name, sizeof(name), m_cu_device), "cuDeviceGetName");
  int driver_version = 0;
  check_driver(cuDriverGetVersion(&driver_version), "cuDriverGetVersion");
  std::uint32_t cupti_version = 0;
  COUNTERGUARD_CUPTI_CHECK(cuptiGetVersion(&cupti_version));
  m_device.gpu_name = name;
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
}

context_profiler::~context_profiler() {
  release();
}

void context_profiler::release() noexcept {
  abandon();
  if (m_profiler != nullptr) {
    auto params =
        cupti_params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    params.pRangeProfilerObject = m_profiler;
    COUNTERGUARD_CUPTI_NOTHROW(cuptiRangeProfilerDisable(&params));
    m_profiler = nullptr;
  }
  m_applied = nullptr;
}

const context_profiler::configuration& context_profiler::configuration_for(
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

void context_profiler::begin(const std::vector<std::string>& raw_metrics) {
  const configuration& config = configuration_for(raw_metrics);
  if (m_profiler == nullptr) {
    // Enabled until another process of the program waits for the counters (release()).
    const auto started = std::chrono::steady_clock::now();
    auto enable =
        cupti_params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    enable.ctx = m_context;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerEnable(&enable));
    m_profiler = enable.pRangeProfilerObject;
    m_applied = nullptr;
    trace("range profiler enabled in " +
          std::to_string(
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count()) +
          " ms");
  }
  // Seen on the H200 (range_profiler.cpp): SetConfig with another configuration on an enabled profiler keeps
  // collecting the first one's counters, so a new metric set re-enables it.
  if (m_applied != nullptr && m_applied != &config) {
    auto disable =
        cupti_params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    disable.pRangeProfilerObject = m_profiler;
    m_profiler = nullptr;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerDisable(&disable));
    auto enable =
        cupti_params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    enable.ctx = m_context;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerEnable(&enable));
    m_profiler = enable.pRangeProfilerObject;
  }
  m_applied = &config;

  std::vector<const char*> names = detail::c_names(raw_metrics);
  auto size = cupti_params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pRangeProfilerObject = m_profiler;
  size.pMetricNames = names.data();
  size.numMetrics = names.size();
  size.maxNumOfRanges = 1;
  size.maxNumRangeTreeNodes = 1;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataSize(&size));
  m_image.assign(size.counterDataSize, 0);

  auto initialize = cupti_params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  initialize.pRangeProfilerObject = m_profiler;
  initialize.counterDataSize = m_image.size();
  initialize.pCounterData = m_image.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerCounterDataImageInitialize(&initialize));

  auto set_config =
      cupti_params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  set_config.pRangeProfilerObject = m_profiler;
  set_config.configSize = config.image.size();
  set_config.pConfig = config.image.data();
  set_config.counterDataImageSize = m_image.size();
  set_config.pCounterDataImage = m_image.data();
  set_config.range = CUPTI_AutoRange;
  set_config.replayMode = CUPTI_KernelReplay;
  set_config.maxRangesPerPass = 1;
  set_config.numNestingLevels = 1;
  set_config.minNestingLevel = 1;
  set_config.passIndex = 0;
  set_config.targetNestingLevel = 1;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerSetConfig(&set_config));

  auto start = cupti_params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  start.pRangeProfilerObject = m_profiler;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerStart(&start));
  m_started = true;
  m_current = &config;
}

launch_capture context_profiler::end() {
  if (!m_started || m_current == nullptr)
    throw api_error("the range profiler was not started for this launch", 0);
  const configuration& config = *m_current;
  m_current = nullptr;
  m_started = false;
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

  auto info = cupti_params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = m_image.data();
  info.counterDataImageSize = m_image.size();
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataInfo(&info));
  if (info.numTotalRanges == 0)
    throw api_error("the launch left no profiling range (it failed to launch)", 0);

  launch_capture capture;
  capture.image.chip = m_device.chip;
  capture.image.bytes = std::move(m_image);
  capture.passes = config.passes;
  capture.dropped_ranges = static_cast<int>(decode.numOfRangeDropped);
  m_image.clear();
  return capture;
}

void context_profiler::abandon() noexcept {
  if (!m_started)
    return;
  m_started = false;
  m_current = nullptr;
  auto stop = cupti_params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = m_profiler;
  COUNTERGUARD_CUPTI_NOTHROW(cuptiRangeProfilerStop(&stop));
}

}  // namespace counterguard::injection
