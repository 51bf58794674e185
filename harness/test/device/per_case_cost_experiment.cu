// Not a test: an experiment on the GPU host (tools/h200_evidence.sh per_case_cost). Where does a profiled
// case's time go outside the counters themselves? One case of the benchmark's kind (coalescing/strided-like:
// two 1M-float inputs filled on the GPU, one output poisoned, one kernel, the output checked on the GPU),
// step by step, without CUPTI and then inside the worker's profiling session (two hardware counters, then the
// benchmark's instrumented ones, with buffers allocated per case and reused). Prints the median and mean wall
// time of each step in microseconds, and the GPU time of the fill and check kernels (CUDA events); exits 1 if
// a check fails. Argument: the cases per condition (300). Then, for each counter set, one capture of 1 to 16
// launches: whether a capture costs per launch or per capture.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/evaluator/counter_data_evaluator.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/profiler/device_profiler.hpp"
#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/device_elementwise.cuh"
#include "counterguard/registry/linear_congruential.hpp"

namespace counterguard {
namespace {

using clock_type = std::chrono::steady_clock;

constexpr std::size_t elements = 1 << 20;
constexpr int stride = 2;

__global__ void strided_add(const float* a, const float* b, float* c, std::int64_t threads, int step) {
  const std::int64_t t = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t < threads)
    c[t] = a[t * step] + b[t * step];
}

__host__ __device__ float input_value(std::uint32_t seed, std::uint64_t i) {
  return static_cast<float>(static_cast<int>(lcg_state_after(seed * 2654435761u + 1u, i + 1) >> 22) - 512);
}

struct generated_input {
  std::uint32_t seed;
  __host__ __device__ float operator()(std::size_t i) const { return input_value(seed, i); }
};

struct strided_sum {
  __host__ __device__ float operator()(std::size_t t) const {
    return input_value(3, t * stride) + input_value(4, t * stride);
  }
};

// Wall times of named steps, in microseconds.
class steps {
 public:
  template <typename Step>
  void time(const std::string& name, Step step) {
    const auto start = clock_type::now();
    step();
    m_us[name].push_back(std::chrono::duration<double, std::micro>(clock_type::now() - start).count());
  }
  void add(const std::string& name, double us) { m_us[name].push_back(us); }
  void print(const char* condition) const {
    for (const auto& [name, values] : m_us) {
      std::vector<double> sorted = values;
      std::sort(sorted.begin(), sorted.end());
      const double mean =
          std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
      std::printf("%-22s %-26s median %8.1f us  mean %8.1f us  (%zu)\n", condition, name.c_str(),
                  sorted[sorted.size() / 2], mean, sorted.size());
    }
  }

 private:
  std::map<std::string, std::vector<double>> m_us;
};

// GPU milliseconds of what `enqueue` puts on the legacy stream.
template <typename Enqueue>
double gpu_us(Enqueue enqueue) {
  cudaEvent_t begin = nullptr;
  cudaEvent_t end = nullptr;
  COUNTERGUARD_CUDA_CHECK(cudaEventCreate(&begin));
  COUNTERGUARD_CUDA_CHECK(cudaEventCreate(&end));
  COUNTERGUARD_CUDA_CHECK(cudaEventRecord(begin));
  enqueue();
  COUNTERGUARD_CUDA_CHECK(cudaEventRecord(end));
  COUNTERGUARD_CUDA_CHECK(cudaEventSynchronize(end));
  float ms = 0;
  COUNTERGUARD_CUDA_CHECK(cudaEventElapsedTime(&ms, begin, end));
  COUNTERGUARD_CUDA_CHECK(cudaEventDestroy(begin));
  COUNTERGUARD_CUDA_CHECK(cudaEventDestroy(end));
  return ms * 1e3;
}

struct buffers {
  device_buffer<float> a{elements};
  device_buffer<float> b{elements};
  device_buffer<float> c{elements / stride};
};

// One case; `profiler` null: launched without CUPTI. `kept`: buffers reused from an earlier case.
bool one_case(steps& s, device_profiler* profiler, const std::vector<std::string>& raw, buffers* kept) {
  std::unique_ptr<buffers> own;
  s.time("malloc", [&] {
    if (kept == nullptr)
      own = std::make_unique<buffers>();
  });
  buffers& b = kept != nullptr ? *kept : *own;
  s.time("fill", [&] {
    fill_elements_on_device(b.a.data(), elements, generated_input{3});
    fill_elements_on_device(b.b.data(), elements, generated_input{4});
  });
  s.time("memset", [&] { b.c.fill_bytes(0xFF); });
  s.time("sync_idle", [&] { COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize()); });
  const auto launch = [&] {
    strided_add<<<elements / stride / 256, 256>>>(b.a.data(), b.b.data(), b.c.data(), elements / stride,
                                                  stride);
    COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
  };
  if (profiler == nullptr) {
    s.time("launch_sync", [&] {
      launch();
      COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());
    });
  } else {
    profile_capture capture;
    s.time("profile", [&] { capture = profiler->profile(raw, "per_case_cost", launch, 2); });
    for (const auto& [phase, seconds] : capture.phase_seconds)
      s.add("profile." + phase, seconds * 1e6);
    s.time("evaluate_image", [&] { static_cast<void>(evaluate_counter_data(capture.image, raw)); });
  }
  verification verdict;
  s.time("check",
         [&] { verdict = check_elements_on_device("c", b.c.data(), elements / stride, strided_sum{}); });
  s.add("gpu.fill_kernel",
        gpu_us([&] { fill_elements_on_device(b.a.data(), elements, generated_input{3}); }));
  s.add("gpu.check_kernel", gpu_us([&] {
          static_cast<void>(check_elements_on_device("c", b.c.data(), elements / stride, strided_sum{}));
        }));
  s.time("empty_kernel_sync", [&] {
    fill_elements_on_device(b.c.data(), 0, generated_input{3});  // nothing: count 0
    strided_add<<<1, 32>>>(b.a.data(), b.b.data(), b.c.data(), 0, stride);
    COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());
  });
  s.time("free", [&] { own.reset(); });  // last: the GPU timings above use the buffers
  if (!verdict.passed)
    std::printf("check failed: %s\n", verdict.message.c_str());
  return verdict.passed;
}

// Is a capture's cost per launch or per capture? `launches` launches of the case's kernel in one capture.
void launches_per_capture(device_profiler& profiler, const std::vector<std::string>& raw, const char* label) {
  buffers b;
  fill_elements_on_device(b.a.data(), elements, generated_input{3});
  fill_elements_on_device(b.b.data(), elements, generated_input{4});
  for (const int launches : {1, 2, 4, 8, 16}) {
    std::vector<double> ms;
    int passes = 0;
    for (int repeat = 0; repeat < 5; ++repeat) {
      const auto start = clock_type::now();
      const profile_capture capture = profiler.profile(
          raw, "per_case_cost",
          [&] {
            for (int k = 0; k < launches; ++k) {
              strided_add<<<elements / stride / 256, 256>>>(b.a.data(), b.b.data(), b.c.data(),
                                                            elements / stride, stride);
            }
            COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
          },
          16);
      ms.push_back(std::chrono::duration<double, std::milli>(clock_type::now() - start).count());
      passes = capture.passes;
      if (capture.launches.size() != static_cast<std::size_t>(launches) || capture.dropped_ranges != 0)
        std::printf("%s: %d launches recorded %zu, dropped %d\n", label, launches, capture.launches.size(),
                    capture.dropped_ranges);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%-22s %2d launches in one capture: median %8.2f ms (%.2f ms a launch), %d passes\n", label,
                launches, ms[ms.size() / 2], ms[ms.size() / 2] / launches, passes);
  }
}

}  // namespace
}  // namespace counterguard

int main(int argc, char** argv) {
  using namespace counterguard;
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // every line out before a failure ends the process
  const int cases = argc > 1 ? std::atoi(argv[1]) : 300;
  std::vector<std::string> raw;
  for (const char* metric :
       {"global_load_sectors", "global_load_requests", "global_store_sectors", "global_store_requests",
        "shared_load_bank_conflicts", "shared_store_bank_conflicts"}) {
    for (const auto& input : metric_catalog::builtin().resolve(metric).raw_inputs) {
      if (std::find(raw.begin(), raw.end(), input) == raw.end())
        raw.push_back(input);
    }
  }
  bool passed = true;
  COUNTERGUARD_CUDA_CHECK(cudaFree(nullptr));
  {
    steps plain;
    for (int k = 0; k < cases; ++k)
      passed = one_case(plain, nullptr, raw, nullptr) && passed;
    plain.print("without CUPTI");
  }
  // The benchmark's counters are all instrumented (sass) ones; for comparison, two hardware counters. They go
  // first: a switch from instrumented counters to none crashes CUPTI.
  const std::vector<std::string> hardware = {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum",
                                             "smsp__inst_executed.sum"};
  for (const auto& name : raw)
    std::printf("benchmark counter %s\n", name.c_str());
  device_profiler profiler(0);
  profiler.reserve({hardware, raw}, 16);
  launches_per_capture(profiler, hardware, "profiled, hardware");
  {
    steps profiled;
    for (int k = 0; k < cases; ++k)
      passed = one_case(profiled, &profiler, hardware, nullptr) && passed;
    profiled.print("profiled, hardware");
  }
  {
    steps profiled;
    for (int k = 0; k < cases; ++k)
      passed = one_case(profiled, &profiler, raw, nullptr) && passed;
    profiled.print("profiled");
  }
  launches_per_capture(profiler, raw, "profiled");
  {
    steps reused;
    buffers kept;
    for (int k = 0; k < cases; ++k)
      passed = one_case(reused, &profiler, raw, &kept) && passed;
    reused.print("profiled, reused");
  }
  std::printf("checks %s\n", passed ? "passed" : "FAILED");
  return passed ? 0 : 1;
}
