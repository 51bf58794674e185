// Not a test: an experiment on the GPU host (tools/h200_evidence.sh switch). A run pays about 145 ms at the
// first capture after every range-profiler Enable, once per profiler configuration
// (profiler_contexts_experiment.cu). Is that time spent on the CPU or waiting; does it depend on the replay
// mode or on how much device memory is allocated; and does the older session API (cuptiProfilerBeginSession,
// SetConfig/UnsetConfig inside one session) switch configurations without paying it? Prints one line per
// measurement; exits 1 if an exact value differs between the ways of collecting it.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <nvperf_cuda_host.h>
#include <nvperf_host.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/cupti/counter_data_image_setup.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/profiler_host.hpp"
#include "counterguard/evaluator/counter_data_evaluator.hpp"

namespace {

using counterguard::detail::cupti_params;
using clock_type = std::chrono::steady_clock;

__global__ void scale(float* x, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
    x[i] = x[i] * 2.0f + 1.0f;
}

constexpr int elements = 1 << 20;

// Wall time and this thread's user and system CPU time of one step, in ms (system time is the driver's).
struct stopwatch {
  clock_type::time_point wall = clock_type::now();
  std::pair<double, double> cpu = thread_cpu_ms();

  static std::pair<double, double> thread_cpu_ms() {
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    const auto ms = [](const timeval& t) {
      return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3;
    };
    return {ms(usage.ru_utime), ms(usage.ru_stime)};
  }
  std::string lap() {
    const auto now = clock_type::now();
    const auto now_cpu = thread_cpu_ms();
    char text[80];
    std::snprintf(text, sizeof text, "%.1f ms (user %.1f sys %.1f)",
                  std::chrono::duration<double, std::milli>(now - wall).count(), now_cpu.first - cpu.first,
                  now_cpu.second - cpu.second);
    wall = now;
    cpu = now_cpu;
    return text;
  }
};

// NVPW parameter structs: zeroed, with their size set.
template <typename Params>
Params sized(std::size_t size) {
  Params params{};
  params.structSize = size;
  return params;
}

void check_nvpw(NVPA_Status status, const char* call) {
  if (status != NVPA_STATUS_SUCCESS)
    throw counterguard::api_error(std::string(call) + ": NVPA_Status " + std::to_string(status), status);
}

struct metric_set {
  std::string name;
  std::vector<std::string> metrics;
  std::vector<std::uint8_t> config;
};

std::string chip;
std::vector<std::uint8_t> availability;
CUcontext context = nullptr;
float* data = nullptr;
bool all_same = true;
std::map<std::string, std::map<std::string, double>> reference;  // by set name

void compare(const std::string& where, const metric_set& set, const std::map<std::string, double>& values) {
  std::string shown;
  for (const auto& [metric, value] : values)
    shown += " " + metric + "=" + std::to_string(value);
  if (set.name != "B") {  // B: warps active, noisy
    const auto known = reference.find(set.name);
    if (known == reference.end()) {
      reference[set.name] = values;
    } else if (known->second != values) {
      all_same = false;
      shown += "  DIFFERENT";
    }
  }
  std::printf("    %s %s:%s\n", where.c_str(), set.name.c_str(), shown.c_str());
}

void launch_once() {
  scale<<<elements / 256, 256>>>(data, elements);
  COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());
}

// --- the range profiler -------------------------------------------------------------------------------

CUpti_RangeProfiler_Object* enable_range_profiler() {
  auto params =
      cupti_params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  params.ctx = context;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerEnable(&params));
  return params.pRangeProfilerObject;
}

void disable_range_profiler(CUpti_RangeProfiler_Object* profiler) {
  auto params =
      cupti_params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
  params.pRangeProfilerObject = profiler;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerDisable(&params));
}

// `launches` launches (one by default) profiled with `set` in `mode` in one Start/Stop window per pass;
// prints where the time went.
void range_capture(CUpti_RangeProfiler_Object* profiler, const metric_set& set, CUpti_ProfilerReplayMode mode,
                   const char* label, int launches_per_window = 1) {
  stopwatch watch;
  counterguard::counter_data_image image{
      chip, counterguard::detail::initialized_counter_data_image(profiler, set.metrics, launches_per_window)};
  auto config =
      cupti_params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  config.pRangeProfilerObject = profiler;
  config.configSize = set.config.size();
  config.pConfig = set.config.data();
  config.counterDataImageSize = image.bytes.size();
  config.pCounterDataImage = image.bytes.data();
  config.range = CUPTI_AutoRange;
  config.replayMode = mode;
  config.maxRangesPerPass = static_cast<std::size_t>(launches_per_window);
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerSetConfig(&config));
  const std::string setup = watch.lap();
  std::string starts;
  std::string launches;
  bool submitted = false;
  while (!submitted) {
    auto start = cupti_params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = profiler;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerStart(&start));
    starts += " " + watch.lap();
    for (int k = 0; k < launches_per_window; ++k)
      launch_once();
    launches += " " + watch.lap();
    auto stop = cupti_params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = profiler;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerStop(&stop));
    submitted = stop.isAllPassSubmitted != 0;
  }
  auto decode =
      cupti_params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = profiler;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerDecodeData(&decode));
  std::printf("  %-34s set %s: setup %s | start%s | launch%s | stop+decode %s\n", label, set.name.c_str(),
              setup.c_str(), starts.c_str(), launches.c_str(), watch.lap().c_str());
  const auto ranges = counterguard::evaluate_counter_data(image, set.metrics);
  if (ranges.size() != static_cast<std::size_t>(launches_per_window)) {
    std::printf("    %s %s: %zu ranges for %d launches\n", label, set.name.c_str(), ranges.size(),
                launches_per_window);
    all_same = false;
  }
  for (const auto& range : ranges)
    compare(label, set, range.values);
}

// Is a capture's cost per launch or per Start/Stop window? 1, 4 and 16 launches in one window, by replay
// mode, for instrumented counters (set A) and hardware counters (set C); one Enable per set.
void launches_per_window(const std::vector<metric_set>& sets) {
  for (const CUpti_ProfilerReplayMode mode : {CUPTI_KernelReplay, CUPTI_UserReplay}) {
    for (const int index : {0, 2}) {
      const metric_set& set = sets[static_cast<std::size_t>(index)];
      std::printf("range profiler, %s replay, set %s, launches per window\n",
                  mode == CUPTI_KernelReplay ? "kernel" : "user", set.name.c_str());
      CUpti_RangeProfiler_Object* profiler = enable_range_profiler();
      range_capture(profiler, set, mode, "warm-up capture");
      for (const int launches : {1, 4, 16}) {
        const std::string label = std::to_string(launches) + " launches in one window";
        range_capture(profiler, set, mode, label.c_str(), launches);
      }
      disable_range_profiler(profiler);
    }
  }
}

void range_profiler_switches(const std::vector<metric_set>& sets, CUpti_ProfilerReplayMode mode,
                             const char* mode_name) {
  std::printf("range profiler, %s replay: re-enabled at each switch\n", mode_name);
  for (const int index : {0, 1, 0, 2}) {
    const metric_set& set = sets[static_cast<std::size_t>(index)];
    stopwatch watch;
    CUpti_RangeProfiler_Object* profiler = enable_range_profiler();
    std::printf("  enable %s\n", watch.lap().c_str());
    range_capture(profiler, set, mode, "first capture");
    range_capture(profiler, set, mode, "second capture");
    disable_range_profiler(profiler);
    std::printf("  disable %s\n", watch.lap().c_str());
  }
}

// --- the session API (cuptiProfilerBeginSession ... EndSession) ----------------------------------------

// The counter-data prefix NVPW builds for `metrics` (what the session API's counter-data image starts with).
std::vector<std::uint8_t> counter_data_prefix(const std::vector<std::string>& metrics) {
  auto size = sized<NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params>(
      NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params_STRUCT_SIZE);
  size.pChipName = chip.c_str();
  size.pCounterAvailabilityImage = availability.data();
  check_nvpw(NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize(&size), "CalculateScratchBufferSize");
  std::vector<std::uint8_t> scratch(size.scratchBufferSize);
  auto init = sized<NVPW_CUDA_MetricsEvaluator_Initialize_Params>(
      NVPW_CUDA_MetricsEvaluator_Initialize_Params_STRUCT_SIZE);
  init.pScratchBuffer = scratch.data();
  init.scratchBufferSize = scratch.size();
  init.pChipName = chip.c_str();
  init.pCounterAvailabilityImage = availability.data();
  check_nvpw(NVPW_CUDA_MetricsEvaluator_Initialize(&init), "MetricsEvaluator_Initialize");
  NVPW_MetricsEvaluator* evaluator = init.pMetricsEvaluator;

  std::vector<std::string> raw_names;
  for (const auto& metric : metrics) {
    NVPW_MetricEvalRequest request{};
    auto convert = sized<NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params>(
        NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params_STRUCT_SIZE);
    convert.pMetricsEvaluator = evaluator;
    convert.pMetricName = metric.c_str();
    convert.pMetricEvalRequest = &request;
    convert.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    check_nvpw(NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest(&convert), metric.c_str());
    auto deps = sized<NVPW_MetricsEvaluator_GetMetricRawDependencies_Params>(
        NVPW_MetricsEvaluator_GetMetricRawDependencies_Params_STRUCT_SIZE);
    deps.pMetricsEvaluator = evaluator;
    deps.pMetricEvalRequests = &request;
    deps.numMetricEvalRequests = 1;
    deps.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    deps.metricEvalRequestStrideSize = sizeof(NVPW_MetricEvalRequest);
    check_nvpw(NVPW_MetricsEvaluator_GetMetricRawDependencies(&deps), "GetMetricRawDependencies");
    std::vector<const char*> raw(deps.numRawDependencies);
    deps.ppRawDependencies = raw.data();
    check_nvpw(NVPW_MetricsEvaluator_GetMetricRawDependencies(&deps), "GetMetricRawDependencies");
    for (const char* name : raw)
      raw_names.emplace_back(name);
  }
  std::sort(raw_names.begin(), raw_names.end());
  raw_names.erase(std::unique(raw_names.begin(), raw_names.end()), raw_names.end());
  std::vector<NVPA_RawMetricRequest> requests;
  for (const auto& name : raw_names) {
    auto request = sized<NVPA_RawMetricRequest>(NVPA_RAW_METRIC_REQUEST_STRUCT_SIZE);
    request.pMetricName = name.c_str();
    request.isolated = true;
    request.keepInstances = true;
    requests.push_back(request);
  }
  auto create = sized<NVPW_CUDA_CounterDataBuilder_Create_Params>(
      NVPW_CUDA_CounterDataBuilder_Create_Params_STRUCT_SIZE);
  create.pChipName = chip.c_str();
  create.pCounterAvailabilityImage = availability.data();
  check_nvpw(NVPW_CUDA_CounterDataBuilder_Create(&create), "CounterDataBuilder_Create");
  auto add =
      sized<NVPW_CounterDataBuilder_AddMetrics_Params>(NVPW_CounterDataBuilder_AddMetrics_Params_STRUCT_SIZE);
  add.pCounterDataBuilder = create.pCounterDataBuilder;
  add.pRawMetricRequests = requests.data();
  add.numMetricRequests = requests.size();
  check_nvpw(NVPW_CounterDataBuilder_AddMetrics(&add), "CounterDataBuilder_AddMetrics");
  auto prefix = sized<NVPW_CounterDataBuilder_GetCounterDataPrefix_Params>(
      NVPW_CounterDataBuilder_GetCounterDataPrefix_Params_STRUCT_SIZE);
  prefix.pCounterDataBuilder = create.pCounterDataBuilder;
  check_nvpw(NVPW_CounterDataBuilder_GetCounterDataPrefix(&prefix), "GetCounterDataPrefix size");
  std::vector<std::uint8_t> bytes(prefix.bytesCopied);
  prefix.bytesAllocated = bytes.size();
  prefix.pBuffer = bytes.data();
  check_nvpw(NVPW_CounterDataBuilder_GetCounterDataPrefix(&prefix), "GetCounterDataPrefix");
  auto destroy =
      sized<NVPW_CounterDataBuilder_Destroy_Params>(NVPW_CounterDataBuilder_Destroy_Params_STRUCT_SIZE);
  destroy.pCounterDataBuilder = create.pCounterDataBuilder;
  NVPW_CounterDataBuilder_Destroy(&destroy);
  auto gone = sized<NVPW_MetricsEvaluator_Destroy_Params>(NVPW_MetricsEvaluator_Destroy_Params_STRUCT_SIZE);
  gone.pMetricsEvaluator = evaluator;
  NVPW_MetricsEvaluator_Destroy(&gone);
  return bytes;
}

struct session_image {
  std::vector<std::uint8_t> image;
  std::vector<std::uint8_t> scratch;
  std::vector<std::uint8_t> pristine_image;  // as initialised: copied back to reset the bound buffers
  std::vector<std::uint8_t> pristine_scratch;
};

session_image session_counter_data(const std::vector<std::string>& metrics, int ranges) {
  const std::vector<std::uint8_t> prefix = counter_data_prefix(metrics);
  auto options =
      sized<CUpti_Profiler_CounterDataImageOptions>(CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE);
  options.pCounterDataPrefix = prefix.data();
  options.counterDataPrefixSize = prefix.size();
  options.maxNumRanges = static_cast<std::uint32_t>(ranges);
  options.maxNumRangeTreeNodes = static_cast<std::uint32_t>(ranges);
  options.maxRangeNameLength = 64;
  auto size = cupti_params<CUpti_Profiler_CounterDataImage_CalculateSize_Params>(
      CUpti_Profiler_CounterDataImage_CalculateSize_Params_STRUCT_SIZE);
  size.sizeofCounterDataImageOptions = CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE;
  size.pOptions = &options;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerCounterDataImageCalculateSize(&size));
  session_image result;
  result.image.resize(size.counterDataImageSize);
  auto init = cupti_params<CUpti_Profiler_CounterDataImage_Initialize_Params>(
      CUpti_Profiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.sizeofCounterDataImageOptions = CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE;
  init.pOptions = &options;
  init.counterDataImageSize = result.image.size();
  init.pCounterDataImage = result.image.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerCounterDataImageInitialize(&init));
  auto scratch_size = cupti_params<CUpti_Profiler_CounterDataImage_CalculateScratchBufferSize_Params>(
      CUpti_Profiler_CounterDataImage_CalculateScratchBufferSize_Params_STRUCT_SIZE);
  scratch_size.counterDataImageSize = result.image.size();
  scratch_size.pCounterDataImage = result.image.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerCounterDataImageCalculateScratchBufferSize(&scratch_size));
  result.scratch.resize(scratch_size.counterDataScratchBufferSize);
  auto scratch = cupti_params<CUpti_Profiler_CounterDataImage_InitializeScratchBuffer_Params>(
      CUpti_Profiler_CounterDataImage_InitializeScratchBuffer_Params_STRUCT_SIZE);
  scratch.counterDataImageSize = result.image.size();
  scratch.pCounterDataImage = result.image.data();
  scratch.counterDataScratchBufferSize = result.scratch.size();
  scratch.pCounterDataScratchBuffer = result.scratch.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerCounterDataImageInitializeScratchBuffer(&scratch));
  result.pristine_image = result.image;
  result.pristine_scratch = result.scratch;
  return result;
}

template <typename Params>
Params session_params(std::size_t size) {
  auto params = cupti_params<Params>(size);
  params.ctx = context;
  return params;
}

void begin_session(session_image& counter_data, int ranges) {
  auto begin =
      session_params<CUpti_Profiler_BeginSession_Params>(CUpti_Profiler_BeginSession_Params_STRUCT_SIZE);
  begin.counterDataImageSize = counter_data.image.size();
  begin.pCounterDataImage = counter_data.image.data();
  begin.counterDataScratchBufferSize = counter_data.scratch.size();
  begin.pCounterDataScratchBuffer = counter_data.scratch.data();
  begin.range = CUPTI_AutoRange;
  begin.replayMode = CUPTI_KernelReplay;
  begin.maxRangesPerPass = static_cast<std::size_t>(ranges);
  begin.maxLaunchesPerPass = static_cast<std::size_t>(ranges);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerBeginSession(&begin));
}

void end_session() {
  auto flush = session_params<CUpti_Profiler_FlushCounterData_Params>(
      CUpti_Profiler_FlushCounterData_Params_STRUCT_SIZE);
  const CUptiResult flushed = cuptiProfilerFlushCounterData(&flush);
  if (flushed != CUPTI_SUCCESS)
    std::printf("  (FlushCounterData: CUptiResult %d)\n", static_cast<int>(flushed));
  auto end = session_params<CUpti_Profiler_EndSession_Params>(CUpti_Profiler_EndSession_Params_STRUCT_SIZE);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerEndSession(&end));
}

// SetConfig(set), two launches profiled (EnableProfiling/launch/DisableProfiling each), UnsetConfig; the
// times of each step.
std::string session_captures(const metric_set& set, stopwatch& watch, bool unset_config = true) {
  auto config = session_params<CUpti_Profiler_SetConfig_Params>(CUpti_Profiler_SetConfig_Params_STRUCT_SIZE);
  config.pConfig = set.config.data();
  config.configSize = set.config.size();
  config.passIndex = 0;
  config.minNestingLevel = 1;
  config.numNestingLevels = 1;
  config.targetNestingLevel = 1;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerSetConfig(&config));
  std::string times = "set_config " + watch.lap();
  for (int capture = 0; capture < 2; ++capture) {
    auto enable = session_params<CUpti_Profiler_EnableProfiling_Params>(
        CUpti_Profiler_EnableProfiling_Params_STRUCT_SIZE);
    COUNTERGUARD_CUPTI_CHECK(cuptiProfilerEnableProfiling(&enable));
    times += " | enable " + watch.lap();
    launch_once();
    times += " launch " + watch.lap();
    auto disable = session_params<CUpti_Profiler_DisableProfiling_Params>(
        CUpti_Profiler_DisableProfiling_Params_STRUCT_SIZE);
    COUNTERGUARD_CUPTI_CHECK(cuptiProfilerDisableProfiling(&disable));
  }
  if (!unset_config)
    return times;
  auto unset =
      session_params<CUpti_Profiler_UnsetConfig_Params>(CUpti_Profiler_UnsetConfig_Params_STRUCT_SIZE);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerUnsetConfig(&unset));
  return times + " | unset " + watch.lap();
}

constexpr int switch_order[] = {0, 1, 0, 2, 0};  // a session per configuration

// A session per configuration: BeginSession, captures, EndSession, each switch.
void session_per_configuration(const std::vector<metric_set>& sets) {
  std::printf("session API: a session per configuration\n");
  for (const int index : switch_order) {
    const metric_set& set = sets[static_cast<std::size_t>(index)];
    session_image counter_data = session_counter_data(set.metrics, 2);
    stopwatch watch;
    begin_session(counter_data, 2);
    const std::string began = watch.lap();
    std::printf("  set %s: begin %s\n", set.name.c_str(), began.c_str());
    const std::string captures = session_captures(set, watch);
    end_session();
    std::printf("  set %s: begin %s | %s | flush+end %s\n", set.name.c_str(), began.c_str(), captures.c_str(),
                watch.lap().c_str());
    const auto ranges = counterguard::evaluate_counter_data(
        counterguard::counter_data_image{chip, counter_data.image}, set.metrics);
    for (std::size_t r = 0; r < ranges.size(); ++r)
      compare("range " + std::to_string(r), set, ranges[r].values);
  }
}

// One session for several configurations in `order` ("ABACA": the sets by name): the counter-data image holds
// the union of their metrics, and a switch is UnsetConfig/SetConfig (the session API's documented way to
// collect several configurations into one image without restarting the session). `unset_last`: UnsetConfig
// before EndSession too.
void one_session(const std::vector<metric_set>& sets, const std::string& order, bool unset_last) {
  std::printf("session API: one session, configurations %s switched inside it%s\n", order.c_str(),
              unset_last ? "" : ", the last one left set at EndSession");
  std::vector<const metric_set*> chosen;
  std::set<std::string> unique;
  for (const char name : order) {
    for (const auto& set : sets) {
      if (set.name == std::string(1, name)) {
        chosen.push_back(&set);
        unique.insert(set.metrics.begin(), set.metrics.end());
      }
    }
  }
  const std::vector<std::string> all(unique.begin(), unique.end());
  const int ranges = 2 * static_cast<int>(chosen.size());
  session_image counter_data = session_counter_data(all, ranges);
  stopwatch watch;
  begin_session(counter_data, ranges);
  std::printf("  begin %s\n", watch.lap().c_str());
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const bool unset = unset_last || i + 1 < chosen.size();
    std::printf("  set %s: %s\n", chosen[i]->name.c_str(),
                session_captures(*chosen[i], watch, unset).c_str());
  }
  end_session();
  std::printf("  flush+end %s\n", watch.lap().c_str());
  // Each range evaluated with its own set's metrics.
  for (std::size_t r = 0; r < 2 * chosen.size(); ++r) {
    const metric_set& set = *chosen[r / 2];
    const auto evaluated = counterguard::evaluate_counter_data(
        counterguard::counter_data_image{chip, counter_data.image}, set.metrics);
    if (r < evaluated.size())
      compare("range " + std::to_string(r), set, evaluated[r].values);
    else
      std::printf("    only %zu ranges in the image\n", evaluated.size());
  }
}

// One session for the configurations in `order`, the bound counter-data image read in the middle of the
// session after each configuration's captures and then reset in place (its initialised bytes copied back):
// can a run keep one session yet hand each case an image of its own ranges?
void one_session_reset_between(const std::vector<metric_set>& sets, const std::string& order) {
  std::printf("session API: one session over %s, the image read and reset after each configuration\n",
              order.c_str());
  std::vector<const metric_set*> chosen;
  std::set<std::string> unique;
  for (const char name : order) {
    for (const auto& set : sets) {
      if (set.name == std::string(1, name)) {
        chosen.push_back(&set);
        unique.insert(set.metrics.begin(), set.metrics.end());
      }
    }
  }
  const std::vector<std::string> all(unique.begin(), unique.end());
  session_image counter_data = session_counter_data(all, 4);
  std::printf("  image %zu bytes, scratch %zu bytes\n", counter_data.image.size(),
              counter_data.scratch.size());
  stopwatch watch;
  begin_session(counter_data, 4);
  std::printf("  begin %s\n", watch.lap().c_str());
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const metric_set& set = *chosen[i];
    std::printf("  set %s: %s\n", set.name.c_str(),
                session_captures(set, watch, i + 1 < chosen.size()).c_str());
    const auto evaluated = counterguard::evaluate_counter_data(
        counterguard::counter_data_image{chip, counter_data.image}, set.metrics);
    std::printf("  read in the session: %zu ranges, %s\n", evaluated.size(), watch.lap().c_str());
    for (std::size_t r = 0; r < evaluated.size(); ++r)
      compare("range " + std::to_string(r), set, evaluated[r].values);
    std::copy(counter_data.pristine_image.begin(), counter_data.pristine_image.end(),
              counter_data.image.begin());
    std::copy(counter_data.pristine_scratch.begin(), counter_data.pristine_scratch.end(),
              counter_data.scratch.begin());
    std::printf("  reset %s\n", watch.lap().c_str());
  }
  end_session();
  std::printf("  flush+end %s\n", watch.lap().c_str());
}

int run(const std::vector<std::string>& arguments) {
  const bool sessions_only = !arguments.empty();
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines reach the file before a crash
  COUNTERGUARD_CUDA_CHECK(cudaFree(nullptr));
  if (cuCtxGetCurrent(&context) != CUDA_SUCCESS)
    throw counterguard::internal_error("cuCtxGetCurrent");
  COUNTERGUARD_CUDA_CHECK(cudaMalloc(&data, elements * sizeof(float)));
  COUNTERGUARD_CUDA_CHECK(cudaMemset(data, 0, elements * sizeof(float)));

  auto initialize =
      cupti_params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerInitialize(&initialize));
  auto host = sized<NVPW_InitializeHost_Params>(NVPW_InitializeHost_Params_STRUCT_SIZE);
  check_nvpw(NVPW_InitializeHost(&host), "NVPW_InitializeHost");
  auto chip_params =
      cupti_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip_params.deviceIndex = 0;
  COUNTERGUARD_CUPTI_CHECK(cuptiDeviceGetChipName(&chip_params));
  chip = chip_params.pChipName;
  auto counters = cupti_params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  counters.ctx = context;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&counters));
  availability.resize(counters.counterAvailabilityImageSize);
  counters.pCounterAvailabilityImage = availability.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&counters));

  std::vector<metric_set> sets = {
      {"A", {"smsp__sass_inst_executed.sum", "smsp__sass_inst_executed_op_global_ld.sum"}, {}},
      {"B", {"sm__warps_active.avg.pct_of_peak_sustained_active"}, {}},
      {"C", {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum", "smsp__inst_executed.sum"}, {}},
      {"D", {"smsp__sass_inst_executed_op_global_st.sum", "smsp__sass_thread_inst_executed.sum"}, {}},
      {"E", {"idc__requests.sum", "smsp__sass_inst_executed_op_global_ld.sum"}, {}}};
  for (auto& set : sets) {
    counterguard::detail::profiler_host profiler_host(chip, availability);
    profiler_host.add_metrics(set.metrics);
    set.config = profiler_host.config_image();
  }

  const auto attempt = [](const char* what, const auto& body) {
    try {
      body();
    } catch (const std::exception& e) {
      std::printf("%s: FAILED: %s\n", what, e.what());
      all_same = false;
    }
  };
  if (!sessions_only) {
    attempt("kernel replay", [&] { range_profiler_switches(sets, CUPTI_KernelReplay, "kernel"); });
    attempt("user replay", [&] { range_profiler_switches(sets, CUPTI_UserReplay, "user"); });
    attempt("kernel replay, 32 GiB allocated", [&] {
      void* big = nullptr;
      COUNTERGUARD_CUDA_CHECK(cudaMalloc(&big, std::size_t{32} << 30));
      COUNTERGUARD_CUDA_CHECK(cudaMemset(big, 1, std::size_t{32} << 30));
      std::printf("with 32 GiB allocated and written:\n");
      range_profiler_switches(sets, CUPTI_KernelReplay, "kernel");
      COUNTERGUARD_CUDA_CHECK(cudaFree(big));
    });
  }
  if (!arguments.empty() && arguments[0] == "windows")
    attempt("launches per window", [&] { launches_per_window(sets); });
  if (arguments.empty() || arguments[0] == "sessions")
    attempt("session API, a session per configuration", [&] { session_per_configuration(sets); });
  if (arguments.empty() || arguments[0] == "reset")
    attempt("session API, one session, image reset",
            [&] { one_session_reset_between(sets, arguments.size() > 1 ? arguments[1] : "BCAD"); });
  if (arguments.empty() || arguments[0] == "one")
    attempt("session API, one session", [&] {
      one_session(sets, arguments.size() > 1 ? arguments[1] : "BCADEA",
                  arguments.size() <= 2 || arguments[2] != "keep");
    });
  std::printf(all_same ? "exact values the same every way\n" : "VALUES DIFFER OR A WAY FAILED\n");
  return all_same ? 0 : 1;
}

}  // namespace

// Arguments: none (everything), `sessions` (a session per configuration), `reset [ORDER]`, `one [ORDER
// [keep]]` (one session switching configurations in ORDER, the last configuration kept set at EndSession with
// `keep`), or `windows` (1 to 16 launches in one range-profiler window, kernel and user replay).
int main(int argc, char** argv) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "profiler_switch_experiment: %s\n", e.what());
    return 2;
  }
}
