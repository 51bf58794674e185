// GPU only: the in-process profiler through CUPTI's session API (profiler_session) gives each capture its own
// ranges, the same values as the range profiler, and keeps one session across configurations except where a
// switch from instrumented to hardware-only counters must begin a new one (ctest -L gpu -R profiler_session).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/evaluator/counter_data_evaluator.hpp"
#include "counterguard/profiler/device_profiler.hpp"
#include "counterguard/registry/device_buffer.hpp"

namespace counterguard {
namespace {

__global__ void scale(float* x, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
    x[i] = x[i] * 2.0f + 1.0f;
}

constexpr int elements = 1 << 20;
const std::vector<std::string> instrumented = {"smsp__sass_inst_executed_op_global_ld.sum",
                                               "smsp__sass_inst_executed_op_global_st.sum"};
const std::vector<std::string> hardware = {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"};

struct measured {
  std::vector<std::map<std::string, double>> ranges;
  bool session_begun = false;
};

// `launches` launches of the kernel profiled with `metrics`.
measured profile(device_profiler& profiler, device_buffer<float>& data,
                 const std::vector<std::string>& metrics, int launches) {
  const profile_capture capture = profiler.profile(
      metrics, "profiler_session_test",
      [&] {
        for (int k = 0; k < launches; ++k)
          scale<<<elements / 256, 256>>>(data.data(), elements);
        COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
      },
      std::max(2, launches));  // room for them, as the worker asks
  measured result;
  for (const auto& range : evaluate_counter_data(capture.image, metrics))
    result.ranges.push_back(range.values);
  EXPECT_EQ(capture.dropped_ranges, 0);
  EXPECT_EQ(capture.launches.size(), static_cast<std::size_t>(launches));
  result.session_begun = capture.phase_seconds.count("session_begin") != 0;
  return result;
}

void expect_exact_values(const measured& m, int launches, const std::vector<std::string>& metrics) {
  ASSERT_EQ(m.ranges.size(), static_cast<std::size_t>(launches));  // this capture's ranges only
  for (const auto& range : m.ranges) {
    for (const auto& metric : metrics) {
      const double expected = metric.find("bytes") != std::string::npos ? elements * 4.0 : elements / 32.0;
      EXPECT_EQ(range.at(metric), expected) << metric;
    }
  }
}

TEST(profiler_session, captures_hold_their_own_ranges_and_switch_configurations_in_one_session) {
  ::unsetenv("COUNTERGUARD_PROFILER_API");
  device_profiler profiler(0);
  device_buffer<float> data(elements);
  profiler.reserve({hardware, instrumented}, 2);

  const measured first_hardware = profile(profiler, data, hardware, 2);
  expect_exact_values(first_hardware, 2, hardware);
  EXPECT_FALSE(first_hardware.session_begun);  // reserve began it
  const measured first_instrumented = profile(profiler, data, instrumented, 1);
  expect_exact_values(first_instrumented, 1, instrumented);
  EXPECT_FALSE(first_instrumented.session_begun);  // hardware-only to instrumented: the same session
  const measured again = profile(profiler, data, instrumented, 2);
  expect_exact_values(again, 2, instrumented);
  EXPECT_FALSE(again.session_begun);
  // Instrumented to hardware-only crashed inside CUPTI on the H200: a new session instead.
  const measured back = profile(profiler, data, hardware, 1);
  expect_exact_values(back, 1, hardware);
  EXPECT_TRUE(back.session_begun);
  // More launches than the session has room for: a new, larger session, nothing dropped.
  const measured many = profile(profiler, data, hardware, 5);
  expect_exact_values(many, 5, hardware);
  EXPECT_TRUE(many.session_begun);
}

TEST(profiler_session, launches_beyond_the_room_asked_for_are_reported_as_dropped) {
  // The worker asks for room for a case's first launches and profiles again with more when ranges were
  // dropped (gpu_worker.cpp): the session must report them, not lose them silently.
  ::unsetenv("COUNTERGUARD_PROFILER_API");
  device_profiler profiler(0);
  device_buffer<float> data(elements);
  profiler.reserve({hardware}, 2);
  const profile_capture capture = profiler.profile(
      hardware, "profiler_session_test",
      [&] {
        for (int k = 0; k < 3; ++k)
          scale<<<elements / 256, 256>>>(data.data(), elements);
        COUNTERGUARD_CUDA_CHECK(cudaGetLastError());
      },
      2);
  EXPECT_EQ(capture.launches.size(), 3U);
  EXPECT_EQ(capture.dropped_ranges, 1);
  EXPECT_EQ(evaluate_counter_data(capture.image, hardware).size(), 2U);
}

TEST(profiler_session, gives_the_values_the_range_profiler_gives) {
  std::vector<measured> by_api;
  for (const char* api : {"range", "session"}) {
    ::setenv("COUNTERGUARD_PROFILER_API", api, 1);
    device_profiler profiler(0);
    device_buffer<float> data(elements);
    by_api.push_back(profile(profiler, data, instrumented, 1));
    by_api.push_back(profile(profiler, data, hardware, 1));
  }
  ::unsetenv("COUNTERGUARD_PROFILER_API");
  ASSERT_EQ(by_api.size(), 4U);
  EXPECT_EQ(by_api[0].ranges, by_api[2].ranges);
  EXPECT_EQ(by_api[1].ranges, by_api[3].ranges);
}

}  // namespace
}  // namespace counterguard
// SPDX-License-Identifier: Apache-2.0
