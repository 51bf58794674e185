// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/core/device_description.hpp"
#include "counterguard/profiler/profile_capture.hpp"

namespace counterguard {

// In-process CUPTI profiler on one device: auto range with kernel replay, so every metric of a multi-pass set
// is exact even for kernels that are not idempotent (CUPTI restores memory between passes). By default
// through CUPTI's session API, one session across profiler configurations (detail::profiler_session: a
// configuration switch costs under 0.1 ms instead of the range profiler's 145 ms on the H200); with
// COUNTERGUARD_PROFILER_API=range through the range profiler (cupti_range_profiler.h), enabled again for each
// new configuration.
// Construction initialises CUDA and CUPTI and throws environment_error with a distinct reason (no GPU,
// insufficient privileges, GPU held by another profiler, running under ncu/nsys, unsupported device).
class device_profiler {
 public:
  explicit device_profiler(int device_ordinal = 0);
  ~device_profiler();
  device_profiler(const device_profiler&) = delete;
  device_profiler& operator=(const device_profiler&) = delete;

  [[nodiscard]] const device_description& device() const;

  // The profiler configurations (raw metric sets) the coming captures will use, and the most launches one
  // will profile at first: with the session API, one session is begun with room for all of them (otherwise
  // a capture outside them begins a new session, about 70 ms on the H200). Nothing with the range profiler.
  void reserve(const std::vector<std::vector<std::string>>& metric_sets, int max_launches);

  // Profiles the kernels `work` launches (on `stream`) inside an NVTX range named `range_name`, collecting
  // `raw_metrics` per launch. `max_launches` bounds the ranges the image holds.
  // Throws api_error when a launch's attributes could not be read.
  [[nodiscard]] profile_capture profile(const std::vector<std::string>& raw_metrics,
                                        const std::string& range_name, const std::function<void()>& work,
                                        int max_launches = 16);

  // The same in two steps, for work that is not one function call (a Python `with` block): begin_capture
  // starts recording and counting the launches of every thread, end_capture synchronises the device and
  // returns what they measured (launch_attributes_known says whether their attributes could be read), and
  // abandon_capture ends a begun capture keeping nothing (a failed block; it never throws). One capture at a
  // time: begin_capture while one is open is an internal_error.
  void begin_capture(const std::vector<std::string>& raw_metrics, const std::string& range_name,
                     int max_launches = 16);
  [[nodiscard]] profile_capture end_capture();
  void abandon_capture() noexcept;
  [[nodiscard]] bool capturing() const;

 private:
  struct state;
  std::unique_ptr<state> m_state;
};

}  // namespace counterguard
