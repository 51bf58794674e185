// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nvperf_cuda_host.h>
#include <nvperf_host.h>

namespace counterguard::detail {

// libnvperf_host (NVIDIA Perfworks: metric tables and counter-data layout), loaded when first needed instead
// of linked. Its static initialiser writes about 100 MB (27,000 page faults, 45 ms here), which every
// counterguard process paid at start: the `run` parent and its worker each, and commands that never touch
// counters (list, static, merge). CUPTI's host API opens the library by the same name, so one copy serves
// both; counterguard opens it before CUPTI needs it (profiler_host, device_profiler). Looked for beside
// libcupti, then by name (LD_LIBRARY_PATH, the program's run path), then where the build found it.
struct nvperf_host_functions {
  decltype(&NVPW_InitializeHost) initialize_host;
  decltype(&NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize) evaluator_scratch_size;
  decltype(&NVPW_CUDA_MetricsEvaluator_Initialize) evaluator_initialize;
  decltype(&NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest) evaluator_request;
  decltype(&NVPW_MetricsEvaluator_GetMetricRawDependencies) evaluator_raw_dependencies;
  decltype(&NVPW_MetricsEvaluator_Destroy) evaluator_destroy;
  decltype(&NVPW_CUDA_CounterDataBuilder_Create) builder_create;
  decltype(&NVPW_CounterDataBuilder_AddMetrics) builder_add_metrics;
  decltype(&NVPW_CounterDataBuilder_GetCounterDataPrefix) builder_prefix;
  decltype(&NVPW_CounterDataBuilder_Destroy) builder_destroy;
};

// The library's functions, loading it on the first call (thread-safe). Throws environment_error naming the
// places looked in when it cannot be loaded.
[[nodiscard]] const nvperf_host_functions& nvperf_host();

// Starts loading it on another thread, for a process that will need it soon (the `run` parent's plan, a
// worker's profiler): its initialiser then runs beside the suites' parsing or CUDA's start-up.
void load_nvperf_host_in_background();

}  // namespace counterguard::detail
