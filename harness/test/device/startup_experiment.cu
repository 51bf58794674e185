// Not a test: an experiment on the GPU host (tools/h200_evidence.sh startup). Issue 12: the worker's
// start-up. On the H200 a worker spends about 130 ms in cuptiDeviceGetChipName and the two
// cuptiProfilerGetCounterAvailability calls (the size query, then the fill), more than in opening the CUDA
// context, and about 60 ms in cuptiProfilerBeginSession. Is the query's time the profiler's first use in the
// driver, which would move to BeginSession without it, or avoidable; which of its two calls pays it; does a
// second query pay it again; and can CUPTI's start-up overlap CUDA's (cuptiProfilerInitialize before the
// context exists, the query on another thread)? One mode per process, every cost here being a first use:
//   availability         the worker's order: the context, CUPTI, two size+fill queries, the session
//   no_availability      no query before the session (the prefix built without availability), one after it
//   init_before_context  libnvperf_host and cuptiProfilerInitialize before any CUDA call (if refused, again
//                        after cudaGetDeviceCount, then after the context); the rest as availability
//   availability_thread  the query on a thread while the main thread reads the device's properties and
//                        builds the configuration image
// After BeginSession, two captures of one kernel (SetConfig, EnableProfiling, launch, DisableProfiling): a
// cost that leaves the query may land there instead of in BeginSession. Prints `step NAME MS` for each step
// (steady clock; the thread's as `step thread.NAME`, after it joins), `error STEP MESSAGE` for a step that
// failed, `info KEY VALUE`, `total MS` (from main), then the first capture's values. Exits 0 whatever CUDA or
// CUPTI does (the evidence script goes on), 2 for a wrong argument.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/cupti/counter_data_image.hpp"
#include "counterguard/cupti/counter_data_prefix.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/nvperf_host_library.hpp"
#include "counterguard/cupti/profiler_host.hpp"
#include "counterguard/evaluator/counter_data_evaluator.hpp"

namespace {

using counterguard::detail::cupti_params;
using clock_type = std::chrono::steady_clock;

// Hardware counters and instrumented (SASS-patched) ones, as a worker's session for the built-in cases holds.
const std::vector<std::string> metrics = {"sm__cycles_elapsed.avg", "smsp__sass_inst_executed.sum",
                                          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                          "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_ld.sum"};
constexpr int max_ranges = 2;  // a worker's session's least room (gpu_worker.cpp: max_launches)
constexpr int elements = 1 << 20;

__global__ void scale(float* x, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
    x[i] = x[i] * 2.0f + 1.0f;
}

double ms_between(clock_type::time_point from, clock_type::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

// One line per error, for the evidence script's readers (some messages carry advice on a second line).
std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r')
      c = ' ';
  }
  return text;
}

void check_driver(CUresult status, const char* call) {
  if (status != CUDA_SUCCESS)
    throw counterguard::api_error(std::string(call) + ": CUresult " + std::to_string(status), status);
}

// Timed steps of one thread. The main thread's lines go out as they happen (a crash inside CUPTI leaves the
// steps before it); another thread's are kept and printed after it joins, so that lines do not interleave.
class steps {
 public:
  steps(std::string prefix, bool immediate) : m_prefix(std::move(prefix)), m_immediate(immediate) {}

  // Runs `body`; false (and an error line) when it throws.
  template <typename Body>
  bool time(const std::string& name, Body body) {
    const auto start = clock_type::now();
    std::string error;
    try {
      body();
    } catch (const std::exception& e) {
      error = one_line(e.what());
    }
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.2f", ms_between(start, clock_type::now()));
    add("step " + m_prefix + name + " " + ms);
    if (!error.empty())
      add("error " + m_prefix + name + " " + error);
    return error.empty();
  }
  void print() const {
    for (const auto& line : m_lines)
      std::printf("%s\n", line.c_str());
  }

 private:
  void add(std::string line) {
    if (m_immediate)
      std::printf("%s\n", line.c_str());
    else
      m_lines.push_back(std::move(line));
  }

  std::string m_prefix;
  bool m_immediate;
  std::vector<std::string> m_lines;
};

struct state {
  CUcontext context = nullptr;
  CUdevice device = 0;
  bool initialized = false;  // cuptiProfilerInitialize succeeded
  std::string chip;
  std::vector<std::uint8_t> availability;  // empty: not read (CUPTI then assumes every counter available)
  std::vector<std::uint8_t> config;
  std::vector<std::uint8_t> prefix;
  std::vector<std::uint8_t> image;
  std::vector<std::uint8_t> scratch;
  std::vector<std::uint8_t> captured;  // the image after the first capture
  float* data = nullptr;
};

template <typename Params>
Params session_params(std::size_t size, CUcontext context) {
  auto params = cupti_params<Params>(size);
  params.ctx = context;
  return params;
}

void count_devices() {
  int count = 0;
  COUNTERGUARD_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (count == 0)
    throw counterguard::api_error("cudaGetDeviceCount: no device", 0);
}

// What the worker does (detail::open_primary_context): the primary context made current.
void open_context(state& s) {
  COUNTERGUARD_CUDA_CHECK(cudaSetDevice(0));
  COUNTERGUARD_CUDA_CHECK(cudaFree(nullptr));
  check_driver(cuCtxGetCurrent(&s.context), "cuCtxGetCurrent");
  check_driver(cuDeviceGet(&s.device, 0), "cuDeviceGet");
}

void initialize_cupti(state& s) {
  auto params = cupti_params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerInitialize(&params));
  s.initialized = true;
}

void device_supported(const state& s) {
  auto params =
      cupti_params<CUpti_Profiler_DeviceSupported_Params>(CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  params.cuDevice = s.device;
  params.api = CUPTI_PROFILER_RANGE_PROFILING;  // as device_profiler asks, for either API
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerDeviceSupported(&params));
  if (params.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    throw counterguard::api_error("cuptiProfilerDeviceSupported: not supported", 0);
}

void chip_name(state& s) {
  auto params = cupti_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  params.deviceIndex = 0;
  COUNTERGUARD_CUPTI_CHECK(cuptiDeviceGetChipName(&params));
  s.chip = params.pChipName != nullptr ? params.pChipName : "";
}

// The two calls of a query, timed apart: the size (no image given), then the fill.
void availability_size(CUcontext context, std::size_t& size) {
  auto params = session_params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE, context);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&params));
  size = params.counterAvailabilityImageSize;
}

void availability_fill(CUcontext context, std::size_t size, std::vector<std::uint8_t>& image) {
  image.assign(size, 0);
  auto params = session_params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE, context);
  params.counterAvailabilityImageSize = image.size();
  params.pCounterAvailabilityImage = image.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&params));
}

// A size+fill query on `on`'s steps, named with `suffix`; the image is empty when a call failed.
std::vector<std::uint8_t> query_availability(steps& on, CUcontext context, const std::string& suffix) {
  std::size_t size = 0;
  std::vector<std::uint8_t> image;
  if (on.time("availability_size" + suffix, [&] { availability_size(context, size); }))
    on.time("availability_fill" + suffix, [&] { availability_fill(context, size, image); });
  return image;
}

// The worker plans its configurations without the device's availability (for the chip the parent expects).
void config_image(state& s) {
  counterguard::detail::profiler_host host(s.chip);
  host.add_metrics(metrics);
  s.config = host.config_image();
}

// As profiler_session::begin: the image and scratch buffer for `max_ranges` ranges of the prefix's counters.
void initialize_image(state& s) {
  auto options = cupti_params<CUpti_Profiler_CounterDataImageOptions>(
      CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE);
  options.pCounterDataPrefix = s.prefix.data();
  options.counterDataPrefixSize = s.prefix.size();
  options.maxNumRanges = max_ranges;
  options.maxNumRangeTreeNodes = max_ranges;
  options.maxRangeNameLength = 64;
  auto size = cupti_params<CUpti_Profiler_CounterDataImage_CalculateSize_Params>(
      CUpti_Profiler_CounterDataImage_CalculateSize_Params_STRUCT_SIZE);
  size.sizeofCounterDataImageOptions = CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE;
  size.pOptions = &options;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerCounterDataImageCalculateSize(&size));
  s.image.assign(size.counterDataImageSize, 0);
  auto init = cupti_params<CUpti_Profiler_CounterDataImage_Initialize_Params>(
      CUpti_Profiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.sizeofCounterDataImageOptions = CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE;
  init.pOptions = &options;
  init.counterDataImageSize = s.image.size();
  init.pCounterDataImage = s.image.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerCounterDataImageInitialize(&init));
  auto scratch_size = cupti_params<CUpti_Profiler_CounterDataImage_CalculateScratchBufferSize_Params>(
      CUpti_Profiler_CounterDataImage_CalculateScratchBufferSize_Params_STRUCT_SIZE);
  scratch_size.counterDataImageSize = s.image.size();
  scratch_size.pCounterDataImage = s.image.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerCounterDataImageCalculateScratchBufferSize(&scratch_size));
  s.scratch.assign(scratch_size.counterDataScratchBufferSize, 0);
  auto scratch = cupti_params<CUpti_Profiler_CounterDataImage_InitializeScratchBuffer_Params>(
      CUpti_Profiler_CounterDataImage_InitializeScratchBuffer_Params_STRUCT_SIZE);
  scratch.counterDataImageSize = s.image.size();
  scratch.pCounterDataImage = s.image.data();
  scratch.counterDataScratchBufferSize = s.scratch.size();
  scratch.pCounterDataScratchBuffer = s.scratch.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerCounterDataImageInitializeScratchBuffer(&scratch));
}

void allocate(state& s) {
  COUNTERGUARD_CUDA_CHECK(cudaMalloc(&s.data, elements * sizeof(float)));
  COUNTERGUARD_CUDA_CHECK(cudaMemset(s.data, 0, elements * sizeof(float)));
  COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());
}

// The parameters of profiler_session::begin: kernel replay, auto range.
void begin_session(state& s) {
  auto params = session_params<CUpti_Profiler_BeginSession_Params>(
      CUpti_Profiler_BeginSession_Params_STRUCT_SIZE, s.context);
  params.counterDataImageSize = s.image.size();
  params.pCounterDataImage = s.image.data();
  params.counterDataScratchBufferSize = s.scratch.size();
  params.pCounterDataScratchBuffer = s.scratch.data();
  params.range = CUPTI_AutoRange;
  params.replayMode = CUPTI_KernelReplay;
  params.maxRangesPerPass = max_ranges;
  params.maxLaunchesPerPass = max_ranges;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerBeginSession(&params));
}

void set_config(const state& s) {
  auto params =
      session_params<CUpti_Profiler_SetConfig_Params>(CUpti_Profiler_SetConfig_Params_STRUCT_SIZE, s.context);
  params.pConfig = s.config.data();
  params.configSize = s.config.size();
  params.passIndex = 0;
  params.minNestingLevel = 1;
  params.numNestingLevels = 1;
  params.targetNestingLevel = 1;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerSetConfig(&params));
}

// One launch profiled, as a worker's case (begin_capture, the launch, end_capture); the image copied out
// after the first.
void capture(state& s) {
  auto enable = session_params<CUpti_Profiler_EnableProfiling_Params>(
      CUpti_Profiler_EnableProfiling_Params_STRUCT_SIZE, s.context);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerEnableProfiling(&enable));
  scale<<<elements / 256, 256>>>(s.data, elements);
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t synchronized = cudaDeviceSynchronize();
  auto disable = session_params<CUpti_Profiler_DisableProfiling_Params>(
      CUpti_Profiler_DisableProfiling_Params_STRUCT_SIZE, s.context);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerDisableProfiling(&disable));
  COUNTERGUARD_CUDA_CHECK(launched);
  COUNTERGUARD_CUDA_CHECK(synchronized);
  if (s.captured.empty())
    s.captured = s.image;
}

void unset_config(const state& s) {
  auto params = session_params<CUpti_Profiler_UnsetConfig_Params>(
      CUpti_Profiler_UnsetConfig_Params_STRUCT_SIZE, s.context);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerUnsetConfig(&params));
}

void end_session(const state& s) {
  auto params = session_params<CUpti_Profiler_EndSession_Params>(CUpti_Profiler_EndSession_Params_STRUCT_SIZE,
                                                                 s.context);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerEndSession(&params));
}

int run(const std::string& mode) {
  const auto started = clock_type::now();
  steps main_steps("", true);
  state s;
  const auto finish = [&] {
    std::printf("total %.2f\n", ms_between(started, clock_type::now()));
    return 0;
  };
  const auto load_nvperf = [] { static_cast<void>(counterguard::detail::nvperf_host()); };
  const bool before_context = mode == "init_before_context";
  const bool threaded = mode == "availability_thread";
  const bool queried_first = mode != "no_availability";

  // CUPTI opens libnvperf_host by name: loaded first (nvperf_host_library.hpp).
  std::string initialized_where = "never";
  if (before_context) {
    main_steps.time("nvperf_load", load_nvperf);
    if (main_steps.time("cupti_initialize", [&] { initialize_cupti(s); }))
      initialized_where = "before_cuda";
  }
  if (!main_steps.time("device_count", count_devices))
    return finish();
  // Refused before any CUDA call: after the driver's initialisation, still before the context.
  if (before_context && !s.initialized &&
      main_steps.time("cupti_initialize_after_device_count", [&] { initialize_cupti(s); }))
    initialized_where = "after_device_count";
  if (!main_steps.time("context_open", [&] { open_context(s); }))
    return finish();
  if (!before_context)
    main_steps.time("nvperf_load", load_nvperf);
  if (!s.initialized &&
      main_steps.time(before_context ? "cupti_initialize_after_context" : "cupti_initialize",
                      [&] { initialize_cupti(s); }))
    initialized_where = "after_context";
  std::printf("info cupti_initialized %s\n", initialized_where.c_str());
  if (!s.initialized)
    return finish();

  // The query on its own thread, from right after cuptiProfilerInitialize to the join.
  steps thread_steps("thread.", false);
  std::vector<std::uint8_t> thread_availability;
  std::thread query;
  if (threaded) {
    query = std::thread([&thread_steps, &thread_availability, context = s.context] {
      // The context current here too, as a worker's thread would make it (cheap once it exists).
      thread_steps.time("set_context", [&] { check_driver(cuCtxSetCurrent(context), "cuCtxSetCurrent"); });
      thread_availability = query_availability(thread_steps, context, "");
    });
  }
  main_steps.time("device_supported", [&] { device_supported(s); });
  const bool chip_known = main_steps.time("chip_name", [&] { chip_name(s); });
  if (queried_first && !threaded) {
    s.availability = query_availability(main_steps, s.context, "");
    const std::vector<std::uint8_t> again = query_availability(main_steps, s.context, "2");
    std::printf("info availability_bytes %zu\n", s.availability.size());
    std::printf("info availability_same %s\n", again == s.availability ? "yes" : "no");
  }
  main_steps.time("device_properties", [] {
    cudaDeviceProp properties{};
    COUNTERGUARD_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  });
  if (chip_known)
    main_steps.time("config_image", [&] { config_image(s); });
  if (threaded) {
    main_steps.time("join", [&] { query.join(); });  // how long the main thread waits for the query
    thread_steps.print();
    s.availability = std::move(thread_availability);
    std::printf("info availability_bytes %zu\n", s.availability.size());
  }
  std::printf("info chip %s\n", s.chip.c_str());
  if (!chip_known || s.config.empty())
    return finish();

  // An empty availability is allowed (counter_data_prefix.hpp): no_availability, or a failed query.
  if (!main_steps.time("prefix", [&] {
        s.prefix = counterguard::detail::counter_data_prefix(s.chip, s.availability, metrics);
      }))
    return finish();
  if (!main_steps.time("image_initialize", [&] { initialize_image(s); }))
    return finish();
  if (!main_steps.time("allocate", [&] { allocate(s); }))
    return finish();
  if (main_steps.time("begin_session", [&] { begin_session(s); })) {
    if (main_steps.time("set_config", [&] { set_config(s); })) {
      main_steps.time("capture", [&] { capture(s); });
      main_steps.time("capture2", [&] { capture(s); });
      main_steps.time("unset_config", [&] { unset_config(s); });
    }
    main_steps.time("end_session", [&] { end_session(s); });
  }
  // Does the query cost as much once the profiler has been used?
  if (!queried_first) {
    s.availability = query_availability(main_steps, s.context, "");
    std::printf("info availability_bytes %zu\n", s.availability.size());
  }
  finish();

  // The first capture's values, to compare between modes (sm__cycles_elapsed varies from run to run).
  if (!s.captured.empty()) {
    try {
      const auto ranges =
          counterguard::evaluate_counter_data(counterguard::counter_data_image{s.chip, s.captured}, metrics);
      std::printf("info ranges %zu\n", ranges.size());
      if (!ranges.empty()) {
        for (const auto& [metric, value] : ranges.front().values)
          std::printf("value %s %.0f\n", metric.c_str(), value);
      }
    } catch (const std::exception& e) {
      std::printf("error evaluate %s\n", one_line(e.what()).c_str());
    }
  }
  COUNTERGUARD_CUDA_NOTHROW(cudaFree(s.data));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines reach the file before a crash inside CUPTI
  const std::string mode = argc == 2 ? argv[1] : "";
  if (mode != "availability" && mode != "no_availability" && mode != "init_before_context" &&
      mode != "availability_thread") {
    std::fprintf(
        stderr,
        "usage: startup_experiment availability|no_availability|init_before_context|availability_thread\n");
    return 2;
  }
  try {
    return run(mode);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "startup_experiment: %s\n", e.what());
    return 2;
  }
}
