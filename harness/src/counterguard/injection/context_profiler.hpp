// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/core/device_description.hpp"
#include "counterguard/cupti/counter_data_image.hpp"
#include "counterguard/cupti/profiler_session.hpp"
#include "injection_options.hpp"

struct CUpti_RangeProfiler_Object;

namespace counterguard::injection {

// What profiling one launch produced.
struct launch_capture {
  counter_data_image image;  // one range
  int passes = 0;
  int dropped_ranges = 0;
};

// The CUPTI profiler on one CUDA context of a program under `counterguard exec`, driven launch by launch from
// the launch callbacks: begin() before a selected launch, end() after it (auto range, kernel replay: the
// launch is replayed once per pass with device memory restored, so a non-idempotent kernel stays correct).
// Through the session API by default (detail::profiler_session: one session until the counters are handed
// over, small per-launch images), or the range profiler with COUNTERGUARD_PROFILER_API=range. Uses the driver
// API only: the program brings its own CUDA runtime. Not thread-safe: the caller serialises.
class context_profiler {
 public:
  // Checks that the context's device can be profiled and reads its counter availability (the caller holds
  // the counters_lock). Throws environment_error when it cannot (privileges, another profiler, unsupported
  // device) and api_error.
  // Uses the driver API on the calling thread's current context (the caller pushes `context` when it runs
  // on a thread of its own).
  context_profiler(CUcontext context, setup_reuse reuse);
  ~context_profiler();
  context_profiler(const context_profiler&) = delete;
  context_profiler& operator=(const context_profiler&) = delete;

  // The device, as results metadata describe it.
  [[nodiscard]] const device_description& device() const { return m_device; }
  [[nodiscard]] CUdevice cu_device() const { return m_cu_device; }
  [[nodiscard]] int max_threads_per_sm() const { return m_max_threads_per_sm; }

  // Enables the range profiler when it is not (the caller holds the counters_lock) and starts collecting
  // `raw_metrics` for the next launch on this context.
  void begin(const std::vector<std::string>& raw_metrics);
  // Everything begin() does before it starts collecting, ahead of the first launch (the caller holds the
  // counters_lock): the configuration, Enable and, unless the setup is "full", the counter-data image and
  // SetConfig, which cost most of a first launch's set-up (the first SetConfig after Enable: 160-177 ms on
  // the H200).
  void prepare(const std::vector<std::string>& raw_metrics);
  // After the launch returned: stops, decodes and returns its counters. Throws api_error when the launch
  // left no range (it failed) or kernel replay did not finish in one launch.
  [[nodiscard]] launch_capture end();
  // Stops a begun collection without decoding (the caller is failing); never throws.
  void abandon() noexcept;
  // Disables the range profiler (after each launch, and before the context goes away); never throws.
  void release() noexcept;

 private:
  struct configuration;
  configuration& configuration_for(const std::vector<std::string>& metrics);
  // Enable (or re-enable for another configuration), the image and SetConfig as `m_reuse` allows.
  void arm(configuration& config, bool warm_up);
  [[nodiscard]] launch_capture session_capture(const configuration& config);

  CUcontext m_context = nullptr;
  setup_reuse m_reuse = setup_reuse::image;
  CUdevice m_cu_device = 0;
  int m_max_threads_per_sm = 0;
  device_description m_device;
  std::vector<std::uint8_t> m_counter_availability;
  CUpti_RangeProfiler_Object* m_profiler = nullptr;
  std::map<std::vector<std::string>, std::unique_ptr<configuration>> m_configurations;
  const configuration* m_applied = nullptr;
  const configuration* m_current = nullptr;  // begun, not ended
  std::vector<std::uint8_t> m_image;  // the buffer SetConfig was given; each launch's bytes are copied out
  // Counts Enables: a profiler object's address may come back after Disable, its state does not.
  std::uint64_t m_enables = 0;
  // What the last SetConfig was given (setup "config" skips it while all three stay the same).
  std::uint64_t m_set_enable = 0;
  const configuration* m_set_config = nullptr;
  const std::uint8_t* m_set_image = nullptr;
  bool m_started = false;
  std::unique_ptr<detail::profiler_session> m_session;  // with the session API instead of m_profiler
};

// cuptiProfilerInitialize, once per process (the first context_profiler calls it); deinitialize at teardown.
void initialize_profiler_api();
void deinitialize_profiler_api() noexcept;

}  // namespace counterguard::injection
