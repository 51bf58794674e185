// Not a test: an experiment on the GPU host (tools/h200_evidence.sh contexts). Where does the first capture
// after a range profiler is enabled spend its time (about 150 ms on the H200, once per profiler
// configuration of a run), and does a CUDA context per configuration, each with its range profiler enabled
// once, avoid paying it at every switch? Prints one line per capture and exits 1 if a value differs from
// the one the primary context measured.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
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

double ms(clock_type::time_point from, clock_type::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

void check_driver(CUresult status, const char* call) {
  if (status != CUDA_SUCCESS)
    throw counterguard::api_error(std::string(call) + ": CUresult " + std::to_string(status), status);
}

struct metric_set {
  std::string name;
  std::vector<std::string> metrics;
  std::vector<std::uint8_t> config;
  int passes = 0;
};

// A context with its own range profiler, enabled once.
struct profiled_context {
  CUcontext context = nullptr;
  CUpti_RangeProfiler_Object* profiler = nullptr;
  float* data = nullptr;
};

void make_current(const profiled_context& c) {
  check_driver(cuCtxSetCurrent(c.context), "cuCtxSetCurrent");
}

void enable(profiled_context& c) {
  make_current(c);
  auto params =
      cupti_params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  params.ctx = c.context;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerEnable(&params));
  c.profiler = params.pRangeProfilerObject;
}

void disable(profiled_context& c) {
  auto params =
      cupti_params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
  params.pRangeProfilerObject = c.profiler;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerDisable(&params));
  c.profiler = nullptr;
}

struct capture_times {
  double image = 0, set_config = 0, start = 0, launch = 0, stop = 0, decode = 0;
  double total() const { return image + set_config + start + launch + stop + decode; }
};

// One kernel launch profiled with `set` in context `c`; its metric values.
std::map<std::string, double> capture(profiled_context& c, const metric_set& set, const std::string& chip,
                                      capture_times& t) {
  make_current(c);
  auto mark = clock_type::now();
  const auto lap = [&](double& into) {
    const auto now = clock_type::now();
    into += ms(mark, now);
    mark = now;
  };
  counterguard::counter_data_image image{
      chip, counterguard::detail::initialized_counter_data_image(c.profiler, set.metrics, 1)};
  lap(t.image);
  auto config =
      cupti_params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  config.pRangeProfilerObject = c.profiler;
  config.configSize = set.config.size();
  config.pConfig = set.config.data();
  config.counterDataImageSize = image.bytes.size();
  config.pCounterDataImage = image.bytes.data();
  config.range = CUPTI_AutoRange;
  config.replayMode = CUPTI_KernelReplay;
  config.maxRangesPerPass = 1;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerSetConfig(&config));
  lap(t.set_config);
  bool submitted = false;
  while (!submitted) {
    auto start = cupti_params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = c.profiler;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerStart(&start));
    lap(t.start);
    scale<<<elements / 256, 256>>>(c.data, elements);
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
    COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());
    lap(t.launch);
    auto stop = cupti_params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = c.profiler;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerStop(&stop));
    submitted = stop.isAllPassSubmitted != 0;
    lap(t.stop);
  }
  auto decode =
      cupti_params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = c.profiler;
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerDecodeData(&decode));
  lap(t.decode);
  const auto ranges = counterguard::evaluate_counter_data(image, set.metrics);
  return ranges.empty() ? std::map<std::string, double>{} : ranges.front().values;
}

bool all_same = true;
std::map<std::string, std::map<std::string, double>> reference;  // by set: the primary context's values

void report(const char* phase, const std::string& where, const metric_set& set, const capture_times& t,
            const std::map<std::string, double>& values, bool exact) {
  std::string shown;
  for (const auto& [metric, value] : values)
    shown += " " + metric + "=" + std::to_string(value);
  if (exact) {
    const auto known = reference.find(set.name);
    if (known == reference.end()) {
      reference[set.name] = values;
    } else if (known->second != values) {
      all_same = false;
      shown += "  DIFFERENT from the primary context";
    }
  }
  std::printf(
      "%-22s %-10s %-5s total %7.1f ms: image %.1f set_config %.1f start %.1f launch %.1f stop %.1f "
      "decode %.1f |%s\n",
      phase, where.c_str(), set.name.c_str(), t.total(), t.image, t.set_config, t.start, t.launch, t.stop,
      t.decode, shown.c_str());
  std::fflush(stdout);
}

profiled_context new_context(CUdevice device) {
  profiled_context c;
  CUctxCreateParams params{};
  check_driver(cuCtxCreate_v4(&c.context, &params, 0, device), "cuCtxCreate");
  COUNTERGUARD_CUDA_CHECK(cudaMalloc(&c.data, elements * sizeof(float)));
  COUNTERGUARD_CUDA_CHECK(cudaMemset(c.data, 0, elements * sizeof(float)));
  COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());
  return c;
}

int run() {
  COUNTERGUARD_CUDA_CHECK(cudaFree(nullptr));
  profiled_context primary;
  check_driver(cuCtxGetCurrent(&primary.context), "cuCtxGetCurrent");
  CUdevice device = 0;
  check_driver(cuCtxGetDevice(&device), "cuCtxGetDevice");
  COUNTERGUARD_CUDA_CHECK(cudaMalloc(&primary.data, elements * sizeof(float)));
  COUNTERGUARD_CUDA_CHECK(cudaMemset(primary.data, 0, elements * sizeof(float)));

  auto initialize =
      cupti_params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerInitialize(&initialize));
  auto chip_params =
      cupti_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip_params.deviceIndex = 0;
  COUNTERGUARD_CUPTI_CHECK(cuptiDeviceGetChipName(&chip_params));
  const std::string chip = chip_params.pChipName;
  auto availability = cupti_params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  availability.ctx = primary.context;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&availability));
  std::vector<std::uint8_t> counters(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = counters.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&availability));

  std::vector<metric_set> sets = {
      {"A", {"smsp__sass_inst_executed.sum", "smsp__sass_inst_executed_op_global_ld.sum"}, {}, 0},
      {"B", {"sm__warps_active.avg.pct_of_peak_sustained_active"}, {}, 0},
      {"C", {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum", "smsp__inst_executed.sum"}, {}, 0}};
  for (auto& set : sets) {
    counterguard::detail::profiler_host host(chip, counters);
    host.add_metrics(set.metrics);
    set.config = host.config_image();
    set.passes = counterguard::detail::config_pass_count(set.config);
    std::printf("set %s: %d passes\n", set.name.c_str(), set.passes);
  }
  const auto exact = [](const metric_set& set) { return set.name != "B"; };  // B: warps active, noisy

  // 1. One context, the profiler re-enabled at each switch (what a run does today).
  for (const int index : {0, 1, 0, 2, 0}) {
    const metric_set& set = sets[static_cast<std::size_t>(index)];
    const auto before = clock_type::now();
    if (primary.profiler != nullptr)
      disable(primary);
    enable(primary);
    const double enable_ms = ms(before, clock_type::now());
    for (const char* which : {"first", "second"}) {
      capture_times t;
      const auto values = capture(primary, set, chip, t);
      report((std::string("switch, ") + which).c_str(), "primary", set, t, values, exact(set));
    }
    std::printf("  (disable and enable %.1f ms)\n", enable_ms);
  }
  disable(primary);

  // 2. A context per set, each profiler enabled once, all at the same time.
  std::vector<profiled_context> contexts;
  for (std::size_t i = 0; i < sets.size(); ++i)
    contexts.push_back(new_context(device));
  try {
    for (auto& c : contexts)
      enable(c);
  } catch (const std::exception& e) {
    std::printf("a range profiler in each of %zu contexts at once: %s\n", contexts.size(), e.what());
    return all_same ? 0 : 1;
  }
  std::printf("a range profiler enabled in each of %zu contexts at once\n", contexts.size());
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < sets.size(); ++i) {
      capture_times t;
      try {
        const auto values = capture(contexts[i], sets[i], chip, t);
        report(round == 0 ? "context per set, first" : "context per set, again",
               "context" + std::to_string(i), sets[i], t, values, exact(sets[i]));
      } catch (const std::exception& e) {
        std::printf("context %zu, set %s, round %d: %s\n", i, sets[i].name.c_str(), round, e.what());
        all_same = false;
      }
    }
  }
  for (auto& c : contexts) {
    make_current(c);
    disable(c);
  }

  // 3. The first captures of fresh contexts from one thread each, at the same time.
  std::vector<profiled_context> fresh;
  for (std::size_t i = 0; i < sets.size(); ++i)
    fresh.push_back(new_context(device));
  for (auto& c : fresh)
    enable(c);
  const auto together = clock_type::now();
  std::vector<capture_times> times(sets.size());
  std::vector<std::map<std::string, double>> values(sets.size());
  std::vector<std::string> errors(sets.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    threads.emplace_back([&, i] {
      try {
        values[i] = capture(fresh[i], sets[i], chip, times[i]);
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  }
  for (auto& thread : threads)
    thread.join();
  std::printf("first captures of %zu fresh contexts on %zu threads: %.1f ms wall\n", sets.size(), sets.size(),
              ms(together, clock_type::now()));
  for (std::size_t i = 0; i < sets.size(); ++i) {
    if (!errors[i].empty()) {
      std::printf("thread %zu: %s\n", i, errors[i].c_str());
      all_same = false;
      continue;
    }
    report("threads, first", "fresh" + std::to_string(i), sets[i], times[i], values[i], exact(sets[i]));
  }
  std::printf(all_same ? "exact values the same in every context\n" : "VALUES DIFFER\n");
  return all_same ? 0 : 1;
}

}  // namespace

int main() {
  try {
    return run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "profiler_contexts_experiment: %s\n", e.what());
    return 2;
  }
}
