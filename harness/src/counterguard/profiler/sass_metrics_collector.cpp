// SPDX-License-Identifier: Apache-2.0
// Per-instruction counters through CUPTI's SASS metrics API (cupti_sass_metrics.h, CUPTI 13.0).
//
// Call sequence, from the header and NVIDIA's sass_metrics sample (not yet run on a GPU here):
//   cudaFree(0), cuCtxGetCurrent, cuptiProfilerInitialize, cuptiProfilerDeviceSupported(api = SASS_METRICS)
//   cuptiDeviceGetChipName, cuptiSassMetricsGetNumOfMetrics / GetMetrics (the chip's list)
//   cuptiSassMetricsGetProperties (name -> id), cuptiSassMetricsSetConfig (device, ids, GPU granularity)
//   cuptiSassMetricsEnable (ctx, lazy patching: a function is patched at its first launch in the range)
//   work, cudaDeviceSynchronize
//   cuptiSassMetricsGetDataProperties (records, instances), cuptiSassMetricsFlushData (caller's buffers;
//   CUPTI allocates each record's functionName, the caller frees it)
//   cuptiSassMetricsDisable (numOfDroppedRecords), cuptiSassMetricsUnsetConfig, cuptiProfilerDeInitialize
// No CUPTI subscriber is needed: records carry the cubin CRC and the function's name and PC offset. Each
// record's instance values carry their metric id; the sample reads numOfInstances of them per record. How
// records and instances divide between several metrics is not documented, so the buffers have room for every
// metric's instances and unused slots keep a sentinel id (the trace shows how many were filled).
#include "counterguard/profiler/sass_metrics_collector.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <tuple>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/nvperf_host_library.hpp"
#include "detail/primary_context.hpp"

namespace counterguard {
namespace {

constexpr std::uint64_t unused_slot = std::numeric_limits<std::uint64_t>::max();

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

  auto count = detail::cupti_params<CUpti_SassMetrics_GetNumOfMetrics_Params>(
      CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE);
  count.pChipName = chip.pChipName;
  s.check(cuptiSassMetricsGetNumOfMetrics(&count), "cuptiSassMetricsGetNumOfMetrics");
  std::vector<CUpti_SassMetrics_MetricDetails> details(count.numOfMetrics);
  auto list = detail::cupti_params<CUpti_SassMetrics_GetMetrics_Params>(
      CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE);
  list.pChipName = chip.pChipName;
  list.numOfMetrics = details.size();
  list.pMetricsList = details.data();
  s.check(cuptiSassMetricsGetMetrics(&list), "cuptiSassMetricsGetMetrics");
  for (const auto& d : details) {
    s.available.push_back({d.pMetricName != nullptr ? d.pMetricName : "",
                           d.pMetricDescription != nullptr ? d.pMetricDescription : "", d.metricId});
  }
  s.note("{} SASS metrics on {}", s.available.size(), s.device.chip);
  for (const auto& metric : s.available)
    s.note("  {} (id {}): {}", metric.name, metric.id, metric.description);
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
  if (metrics.empty())
    throw internal_error("sass_metrics_collector::collect: no metrics");
  sass_metrics_capture capture;
  capture.metrics = metrics;

  std::vector<CUpti_SassMetrics_Config> configs;
  std::map<std::uint64_t, std::string> friendly_by_id;
  for (const auto& metric : metrics) {
    auto properties = detail::cupti_params<CUpti_SassMetrics_GetProperties_Params>(
        CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE);
    properties.pChipName = s.device.chip.c_str();
    properties.pMetricName = metric.cupti.c_str();
    s.check(cuptiSassMetricsGetProperties(&properties),
            ("cuptiSassMetricsGetProperties(" + metric.cupti + ")").c_str());
    s.note("  {} = {}, id {}", metric.friendly, metric.cupti, properties.metric.metricId);
    CUpti_SassMetrics_Config config{};
    config.metricId = properties.metric.metricId;
    config.outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
    configs.push_back(config);
    friendly_by_id[properties.metric.metricId] = metric.friendly;
  }

  auto set_config =
      detail::cupti_params<CUpti_SassMetricsSetConfig_Params>(CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE);
  set_config.numOfMetricConfig = configs.size();
  set_config.pConfigs = configs.data();
  set_config.deviceIndex = static_cast<std::uint32_t>(s.ordinal);
  s.check(cuptiSassMetricsSetConfig(&set_config), "cuptiSassMetricsSetConfig");
  auto unset_config = detail::cupti_params<CUpti_SassMetricsUnsetConfig_Params>(
      CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE);
  unset_config.deviceIndex = set_config.deviceIndex;
  auto disable =
      detail::cupti_params<CUpti_SassMetricsDisable_Params>(CUpti_SassMetricsDisable_Params_STRUCT_SIZE);
  disable.ctx = s.context;
  bool enabled = false;

  std::vector<CUpti_SassMetrics_Data> data;
  std::vector<std::vector<CUpti_SassMetrics_InstanceValue>> values;
  const auto free_names = [&] {
    for (auto& record : data) {
      std::free(const_cast<char*>(record.functionName));
      record.functionName = nullptr;
    }
  };
  try {
    auto enable =
        detail::cupti_params<CUpti_SassMetricsEnable_Params>(CUpti_SassMetricsEnable_Params_STRUCT_SIZE);
    enable.ctx = s.context;
    enable.enableLazyPatching = 1;
    s.check(cuptiSassMetricsEnable(&enable), "cuptiSassMetricsEnable(lazy patching)");
    enabled = true;

    work();
    COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());
    s.note("work done, device synchronised");

    auto properties = detail::cupti_params<CUpti_SassMetricsGetDataProperties_Params>(
        CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE);
    properties.ctx = s.context;
    s.check(cuptiSassMetricsGetDataProperties(&properties), "cuptiSassMetricsGetDataProperties");
    s.note("{} patched-instruction records, {} instances each", properties.numOfPatchedInstructionRecords,
           properties.numOfInstances);
    if (properties.numOfPatchedInstructionRecords > 0 && properties.numOfInstances > 0) {
      const std::size_t slots = properties.numOfInstances * metrics.size();
      data.resize(properties.numOfPatchedInstructionRecords);
      values.assign(data.size(), std::vector<CUpti_SassMetrics_InstanceValue>(slots, {unused_slot, 0}));
      for (std::size_t i = 0; i < data.size(); ++i) {
        data[i] = CUpti_SassMetrics_Data{};
        data[i].structSize = sizeof(CUpti_SassMetrics_Data);
        data[i].pInstanceValues = values[i].data();
      }
      auto flush = detail::cupti_params<CUpti_SassMetricsFlushData_Params>(
          CUpti_SassMetricsFlushData_Params_STRUCT_SIZE);
      flush.ctx = s.context;
      flush.numOfPatchedInstructionRecords = data.size();
      flush.numOfInstances = properties.numOfInstances;
      flush.pMetricsData = data.data();
      s.check(cuptiSassMetricsFlushData(&flush), "cuptiSassMetricsFlushData");

      std::map<std::tuple<std::string, std::uint32_t, std::uint32_t>, sass_pc_record> by_pc;
      std::size_t filled = 0;
      std::size_t unknown_ids = 0;
      for (std::size_t i = 0; i < data.size(); ++i) {
        const CUpti_SassMetrics_Data& record = data[i];
        const std::string function = record.functionName != nullptr ? record.functionName : "";
        sass_pc_record& out = by_pc[{function, record.cubinCrc, record.pcOffset}];
        out.cubin_crc = record.cubinCrc;
        out.function_index = record.functionIndex;
        out.function = function;
        out.pc_offset = record.pcOffset;
        for (const auto& value : values[i]) {
          if (value.metricId == unused_slot)
            continue;
          ++filled;
          const auto name = friendly_by_id.find(value.metricId);
          if (name == friendly_by_id.end()) {
            ++unknown_ids;
            continue;
          }
          out.values[name->second] += value.value;
        }
      }
      s.note("{} instance values filled of {} slots, {} with an unknown metric id", filled,
             data.size() * slots, unknown_ids);
      for (auto& [key, record] : by_pc)
        capture.records.push_back(std::move(record));
      if (s.trace != nullptr) {
        std::map<std::string, std::size_t> per_function;
        for (const auto& record : capture.records)
          ++per_function[record.function + " crc " + std::to_string(record.cubin_crc)];
        for (const auto& [function, pcs] : per_function)
          s.note("  {}: {} instructions", function, pcs);
      }
    }
    free_names();
    s.check(cuptiSassMetricsDisable(&disable), "cuptiSassMetricsDisable");
    enabled = false;
    capture.dropped_records = disable.numOfDroppedRecords;
    s.note("{} dropped records", capture.dropped_records);
    s.check(cuptiSassMetricsUnsetConfig(&unset_config), "cuptiSassMetricsUnsetConfig");
  } catch (...) {
    free_names();
    if (enabled)
      COUNTERGUARD_CUPTI_NOTHROW(cuptiSassMetricsDisable(&disable));
    COUNTERGUARD_CUPTI_NOTHROW(cuptiSassMetricsUnsetConfig(&unset_config));
    throw;
  }
  return capture;
}

}  // namespace counterguard
