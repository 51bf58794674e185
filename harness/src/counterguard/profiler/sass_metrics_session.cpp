// SPDX-License-Identifier: Apache-2.0
// Per-instruction counters through CUPTI's SASS metrics API (cupti_sass_metrics.h, CUPTI 13.0), on a context
// the caller owns. Call sequence, from the header and NVIDIA's sass_metrics sample:
//   cuptiSassMetricsGetProperties (name -> id), cuptiSassMetricsSetConfig (device, ids, GPU granularity)
//   cuptiSassMetricsEnable (ctx, lazy patching: a function is patched at its first launch in the range)
//   work, synchronise (the caller)
//   cuptiSassMetricsGetDataProperties (records, instances), cuptiSassMetricsFlushData (caller's buffers;
//   CUPTI allocates each record's functionName, the caller frees it)
//   cuptiSassMetricsDisable (numOfDroppedRecords), cuptiSassMetricsUnsetConfig
// No CUPTI subscriber is needed: records carry the cubin CRC and the function's name and PC offset. Each
// record's instance values carry their metric id; the sample reads numOfInstances of them per record. How
// records and instances divide between several metrics is not documented, so the buffers have room for every
// metric's instances and unused slots keep a sentinel id (the trace shows how many were filled).
#include "counterguard/profiler/sass_metrics_session.hpp"

#include <cupti_sass_metrics.h>
#include <fmt/format.h>

#include <cstdlib>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include "counterguard/core/error.hpp"
#include "counterguard/cupti/cupti_check.hpp"

namespace counterguard {
namespace {

constexpr std::uint64_t unused_slot = std::numeric_limits<std::uint64_t>::max();

template <typename... Arguments>
void note(std::FILE* trace, fmt::format_string<Arguments...> format, Arguments&&... arguments) {
  if (trace == nullptr)
    return;
  std::fputs(("[blame] " + fmt::format(format, std::forward<Arguments>(arguments)...) + "\n").c_str(), trace);
  std::fflush(trace);
}

// Traces a CUPTI call's result and throws for a failure, naming the call.
void check(std::FILE* trace, CUptiResult status, const std::string& call) {
  note(trace, "{} -> {}", call, detail::cupti_result_name(status));
  if (status != CUPTI_SUCCESS)
    detail::throw_cupti_error(status, call.c_str());
}

// The records of one flush summed per (function, cubin, PC), by friendly metric name.
std::vector<sass_pc_record> flush_records(CUcontext context,
                                          const std::map<std::uint64_t, std::string>& names,
                                          std::size_t metric_count, std::FILE* trace) {
  auto properties = detail::cupti_params<CUpti_SassMetricsGetDataProperties_Params>(
      CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE);
  properties.ctx = context;
  check(trace, cuptiSassMetricsGetDataProperties(&properties), "cuptiSassMetricsGetDataProperties");
  note(trace, "{} patched-instruction records, {} instances each", properties.numOfPatchedInstructionRecords,
       properties.numOfInstances);
  std::vector<sass_pc_record> records;
  if (properties.numOfPatchedInstructionRecords == 0 || properties.numOfInstances == 0)
    return records;
  const std::size_t slots = properties.numOfInstances * metric_count;
  std::vector<CUpti_SassMetrics_Data> data(properties.numOfPatchedInstructionRecords);
  std::vector<std::vector<CUpti_SassMetrics_InstanceValue>> values(
      data.size(), std::vector<CUpti_SassMetrics_InstanceValue>(slots, {unused_slot, 0}));
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = CUpti_SassMetrics_Data{};
    data[i].structSize = sizeof(CUpti_SassMetrics_Data);
    data[i].pInstanceValues = values[i].data();
  }
  const auto free_names = [&] {
    for (auto& record : data) {
      std::free(const_cast<char*>(record.functionName));
      record.functionName = nullptr;
    }
  };
  auto flush =
      detail::cupti_params<CUpti_SassMetricsFlushData_Params>(CUpti_SassMetricsFlushData_Params_STRUCT_SIZE);
  flush.ctx = context;
  flush.numOfPatchedInstructionRecords = data.size();
  flush.numOfInstances = properties.numOfInstances;
  flush.pMetricsData = data.data();
  try {
    check(trace, cuptiSassMetricsFlushData(&flush), "cuptiSassMetricsFlushData");
  } catch (...) {
    free_names();
    throw;
  }
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
      const auto name = names.find(value.metricId);
      if (name == names.end()) {
        ++unknown_ids;
        continue;
      }
      out.values[name->second] += value.value;
    }
  }
  free_names();
  note(trace, "{} instance values filled of {} slots, {} with an unknown metric id", filled,
       data.size() * slots, unknown_ids);
  for (auto& [key, record] : by_pc)
    records.push_back(std::move(record));
  if (trace != nullptr) {
    std::map<std::string, std::size_t> per_function;
    for (const auto& record : records)
      ++per_function[record.function + " crc " + std::to_string(record.cubin_crc)];
    for (const auto& [function, pcs] : per_function)
      note(trace, "  {}: {} instructions", function, pcs);
  }
  return records;
}

}  // namespace

std::vector<sass_metric_details> list_sass_metrics(const std::string& chip, std::FILE* trace) {
  auto count = detail::cupti_params<CUpti_SassMetrics_GetNumOfMetrics_Params>(
      CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE);
  count.pChipName = chip.c_str();
  check(trace, cuptiSassMetricsGetNumOfMetrics(&count), "cuptiSassMetricsGetNumOfMetrics");
  std::vector<CUpti_SassMetrics_MetricDetails> details(count.numOfMetrics);
  auto list = detail::cupti_params<CUpti_SassMetrics_GetMetrics_Params>(
      CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE);
  list.pChipName = chip.c_str();
  list.numOfMetrics = details.size();
  list.pMetricsList = details.data();
  check(trace, cuptiSassMetricsGetMetrics(&list), "cuptiSassMetricsGetMetrics");
  std::vector<sass_metric_details> available;
  for (const auto& d : details) {
    available.push_back({d.pMetricName != nullptr ? d.pMetricName : "",
                         d.pMetricDescription != nullptr ? d.pMetricDescription : "", d.metricId});
  }
  note(trace, "{} SASS metrics on {}", available.size(), chip);
  for (const auto& metric : available)
    note(trace, "  {} (id {}): {}", metric.name, metric.id, metric.description);
  return available;
}

sass_metrics_session::sass_metrics_session(CUcontext context, std::uint32_t device_index,
                                           const std::string& chip, std::vector<sass_metric_choice> metrics,
                                           std::FILE* trace)
    : m_context(context), m_device_index(device_index), m_metrics(std::move(metrics)), m_trace(trace) {
  if (m_metrics.empty())
    throw internal_error("sass_metrics_session: no metrics");
  std::vector<CUpti_SassMetrics_Config> configs;
  for (const auto& metric : m_metrics) {
    auto properties = detail::cupti_params<CUpti_SassMetrics_GetProperties_Params>(
        CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE);
    properties.pChipName = chip.c_str();
    properties.pMetricName = metric.cupti.c_str();
    check(m_trace, cuptiSassMetricsGetProperties(&properties),
          "cuptiSassMetricsGetProperties(" + metric.cupti + ")");
    note(m_trace, "  {} = {}, id {}", metric.friendly, metric.cupti, properties.metric.metricId);
    CUpti_SassMetrics_Config config{};
    config.metricId = properties.metric.metricId;
    config.outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
    configs.push_back(config);
    m_ids.push_back(properties.metric.metricId);
  }
  auto set_config =
      detail::cupti_params<CUpti_SassMetricsSetConfig_Params>(CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE);
  set_config.numOfMetricConfig = configs.size();
  set_config.pConfigs = configs.data();
  set_config.deviceIndex = m_device_index;
  check(m_trace, cuptiSassMetricsSetConfig(&set_config), "cuptiSassMetricsSetConfig");
  m_configured = true;
  try {
    auto enable =
        detail::cupti_params<CUpti_SassMetricsEnable_Params>(CUpti_SassMetricsEnable_Params_STRUCT_SIZE);
    enable.ctx = m_context;
    enable.enableLazyPatching = 1;
    check(m_trace, cuptiSassMetricsEnable(&enable), "cuptiSassMetricsEnable(lazy patching)");
    m_enabled = true;
  } catch (...) {
    auto unset = detail::cupti_params<CUpti_SassMetricsUnsetConfig_Params>(
        CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE);
    unset.deviceIndex = m_device_index;
    COUNTERGUARD_CUPTI_NOTHROW(cuptiSassMetricsUnsetConfig(&unset));
    m_configured = false;
    throw;
  }
}

sass_metrics_session::~sass_metrics_session() {
  if (m_enabled) {
    auto disable =
        detail::cupti_params<CUpti_SassMetricsDisable_Params>(CUpti_SassMetricsDisable_Params_STRUCT_SIZE);
    disable.ctx = m_context;
    COUNTERGUARD_CUPTI_NOTHROW(cuptiSassMetricsDisable(&disable));
  }
  if (m_configured) {
    auto unset = detail::cupti_params<CUpti_SassMetricsUnsetConfig_Params>(
        CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE);
    unset.deviceIndex = m_device_index;
    COUNTERGUARD_CUPTI_NOTHROW(cuptiSassMetricsUnsetConfig(&unset));
  }
}

sass_metrics_capture sass_metrics_session::finish() {
  if (!m_enabled)
    throw internal_error("sass_metrics_session::finish: not collecting");
  sass_metrics_capture capture;
  capture.metrics = m_metrics;
  std::map<std::uint64_t, std::string> names;
  for (std::size_t i = 0; i < m_metrics.size(); ++i)
    names[m_ids[i]] = m_metrics[i].friendly;
  capture.records = flush_records(m_context, names, m_metrics.size(), m_trace);
  auto disable =
      detail::cupti_params<CUpti_SassMetricsDisable_Params>(CUpti_SassMetricsDisable_Params_STRUCT_SIZE);
  disable.ctx = m_context;
  check(m_trace, cuptiSassMetricsDisable(&disable), "cuptiSassMetricsDisable");
  m_enabled = false;
  capture.dropped_records = disable.numOfDroppedRecords;
  note(m_trace, "{} dropped records", capture.dropped_records);
  auto unset = detail::cupti_params<CUpti_SassMetricsUnsetConfig_Params>(
      CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE);
  unset.deviceIndex = m_device_index;
  check(m_trace, cuptiSassMetricsUnsetConfig(&unset), "cuptiSassMetricsUnsetConfig");
  m_configured = false;
  return capture;
}

}  // namespace counterguard
