// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cupti/counter_data_prefix.hpp"

#include <algorithm>
#include <memory>
#include <mutex>

#include "counterguard/core/error.hpp"
#include "counterguard/cupti/nvperf_host_library.hpp"

namespace counterguard::detail {

namespace {

// NVPW parameter structs: zeroed, with their size set.
template <typename Params>
Params nvpw_params(std::size_t size) {
  Params params{};
  params.structSize = size;
  return params;
}

void check_nvpw(NVPA_Status status, const std::string& call) {
  if (status != NVPA_STATUS_SUCCESS)
    throw api_error(call + ": NVPA_Status " + std::to_string(static_cast<int>(status)),
                    static_cast<int>(status));
}

void initialize_nvpw_host() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto params = nvpw_params<NVPW_InitializeHost_Params>(NVPW_InitializeHost_Params_STRUCT_SIZE);
    check_nvpw(nvperf_host().initialize_host(&params), "NVPW_InitializeHost");
  });
}

struct evaluator_deleter {
  void operator()(NVPW_MetricsEvaluator* evaluator) const {
    auto params =
        nvpw_params<NVPW_MetricsEvaluator_Destroy_Params>(NVPW_MetricsEvaluator_Destroy_Params_STRUCT_SIZE);
    params.pMetricsEvaluator = evaluator;
    nvperf_host().evaluator_destroy(&params);
  }
};

struct builder_deleter {
  void operator()(NVPA_CounterDataBuilder* builder) const {
    auto params = nvpw_params<NVPW_CounterDataBuilder_Destroy_Params>(
        NVPW_CounterDataBuilder_Destroy_Params_STRUCT_SIZE);
    params.pCounterDataBuilder = builder;
    nvperf_host().builder_destroy(&params);
  }
};

const std::uint8_t* or_null(const std::vector<std::uint8_t>& bytes) {
  return bytes.empty() ? nullptr : bytes.data();
}

// The raw counters `metrics` are computed from, sorted and unique.
std::vector<std::string> raw_dependencies(const std::string& chip,
                                          const std::vector<std::uint8_t>& availability,
                                          const std::vector<std::string>& metrics) {
  auto size = nvpw_params<NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params>(
      NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params_STRUCT_SIZE);
  size.pChipName = chip.c_str();
  size.pCounterAvailabilityImage = or_null(availability);
  check_nvpw(nvperf_host().evaluator_scratch_size(&size),
             "NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize for chip " + chip);
  std::vector<std::uint8_t> scratch(size.scratchBufferSize);
  auto init = nvpw_params<NVPW_CUDA_MetricsEvaluator_Initialize_Params>(
      NVPW_CUDA_MetricsEvaluator_Initialize_Params_STRUCT_SIZE);
  init.pScratchBuffer = scratch.data();
  init.scratchBufferSize = scratch.size();
  init.pChipName = chip.c_str();
  init.pCounterAvailabilityImage = or_null(availability);
  check_nvpw(nvperf_host().evaluator_initialize(&init), "NVPW_CUDA_MetricsEvaluator_Initialize");
  const std::unique_ptr<NVPW_MetricsEvaluator, evaluator_deleter> evaluator(init.pMetricsEvaluator);

  std::vector<std::string> raw;
  for (const auto& metric : metrics) {
    NVPW_MetricEvalRequest request{};
    auto convert = nvpw_params<NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params>(
        NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params_STRUCT_SIZE);
    convert.pMetricsEvaluator = evaluator.get();
    convert.pMetricName = metric.c_str();
    convert.pMetricEvalRequest = &request;
    convert.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    check_nvpw(nvperf_host().evaluator_request(&convert), "metric '" + metric + "' on chip " + chip);
    auto dependencies = nvpw_params<NVPW_MetricsEvaluator_GetMetricRawDependencies_Params>(
        NVPW_MetricsEvaluator_GetMetricRawDependencies_Params_STRUCT_SIZE);
    dependencies.pMetricsEvaluator = evaluator.get();
    dependencies.pMetricEvalRequests = &request;
    dependencies.numMetricEvalRequests = 1;
    dependencies.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    dependencies.metricEvalRequestStrideSize = sizeof(NVPW_MetricEvalRequest);
    check_nvpw(nvperf_host().evaluator_raw_dependencies(&dependencies), "raw counters of '" + metric + "'");
    std::vector<const char*> names(dependencies.numRawDependencies);
    dependencies.ppRawDependencies = names.data();
    check_nvpw(nvperf_host().evaluator_raw_dependencies(&dependencies), "raw counters of '" + metric + "'");
    raw.insert(raw.end(), names.begin(), names.end());  // copied before the evaluator goes
  }
  std::sort(raw.begin(), raw.end());
  raw.erase(std::unique(raw.begin(), raw.end()), raw.end());
  return raw;
}

}  // namespace

std::vector<std::uint8_t> counter_data_prefix(const std::string& chip,
                                              const std::vector<std::uint8_t>& counter_availability,
                                              const std::vector<std::string>& metrics) {
  initialize_nvpw_host();
  const std::vector<std::string> raw = raw_dependencies(chip, counter_availability, metrics);
  std::vector<NVPA_RawMetricRequest> requests;
  requests.reserve(raw.size());
  for (const auto& name : raw) {
    NVPA_RawMetricRequest request{};
    request.structSize = NVPA_RAW_METRIC_REQUEST_STRUCT_SIZE;
    request.pMetricName = name.c_str();
    request.isolated = true;
    request.keepInstances = false;
    requests.push_back(request);
  }
  auto create = nvpw_params<NVPW_CUDA_CounterDataBuilder_Create_Params>(
      NVPW_CUDA_CounterDataBuilder_Create_Params_STRUCT_SIZE);
  create.pChipName = chip.c_str();
  create.pCounterAvailabilityImage = or_null(counter_availability);
  check_nvpw(nvperf_host().builder_create(&create), "NVPW_CUDA_CounterDataBuilder_Create");
  const std::unique_ptr<NVPA_CounterDataBuilder, builder_deleter> builder(create.pCounterDataBuilder);
  auto add = nvpw_params<NVPW_CounterDataBuilder_AddMetrics_Params>(
      NVPW_CounterDataBuilder_AddMetrics_Params_STRUCT_SIZE);
  add.pCounterDataBuilder = builder.get();
  add.pRawMetricRequests = requests.data();
  add.numMetricRequests = requests.size();
  check_nvpw(nvperf_host().builder_add_metrics(&add), "NVPW_CounterDataBuilder_AddMetrics");
  auto prefix = nvpw_params<NVPW_CounterDataBuilder_GetCounterDataPrefix_Params>(
      NVPW_CounterDataBuilder_GetCounterDataPrefix_Params_STRUCT_SIZE);
  prefix.pCounterDataBuilder = builder.get();
  check_nvpw(nvperf_host().builder_prefix(&prefix), "NVPW_CounterDataBuilder_GetCounterDataPrefix");
  std::vector<std::uint8_t> bytes(prefix.bytesCopied);
  prefix.bytesAllocated = bytes.size();
  prefix.pBuffer = bytes.data();
  check_nvpw(nvperf_host().builder_prefix(&prefix), "NVPW_CounterDataBuilder_GetCounterDataPrefix");
  bytes.resize(prefix.bytesCopied);
  return bytes;
}

}  // namespace counterguard::detail
