// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/cupti/profiler_host.hpp"
#include "counterguard/profiler/profile_capture.hpp"

struct CUctx_st;

namespace counterguard::detail {

// A metric set's host object and configuration image, built once per set (about 2 ms each, more for many
// metrics) and kept by device_profiler for as long as it lives (backends may key their own state by it).
struct profiler_configuration {
  std::unique_ptr<profiler_host> host;
  std::vector<std::uint8_t> image;
  int passes = 0;
};

// Where a capture's time goes (profile_capture::phase_seconds, for COUNTERGUARD_TIMING): each mark adds the
// time since the previous one to the named phase.
class capture_phases {
 public:
  void mark(const char* name) {
    const auto now = std::chrono::steady_clock::now();
    m_seconds[name] += std::chrono::duration<double>(now - m_mark).count();
    m_mark = now;
  }
  [[nodiscard]] std::map<std::string, double> take() { return std::move(m_seconds); }

 private:
  std::chrono::steady_clock::time_point m_mark = std::chrono::steady_clock::now();
  std::map<std::string, double> m_seconds;
};

// The CUPTI API that collects a capture's counters with auto range and kernel replay, behind device_profiler
// (which owns the context, the launch recorder and the configurations): one implementation per API,
// chosen by COUNTERGUARD_PROFILER_API (session_api_chosen).
class profiler_backend {
 public:
  virtual ~profiler_backend() = default;

  // The configurations (raw metric sets, none empty) and the most ranges the coming captures will use.
  virtual void reserve(const std::vector<std::vector<std::string>>& metric_sets, int max_ranges) = 0;

  // Starts collecting `config` (of `raw_metrics`) for up to `max_ranges` launches; `image` is the capture's
  // counter-data image where the backend fills it in place. Marks "configure" first.
  virtual void begin_capture(const profiler_configuration& config,
                             const std::vector<std::string>& raw_metrics, int max_ranges,
                             std::vector<std::uint8_t>& image, capture_phases& phases) = 0;

  // When the work ran and the device synchronised, before the recorder gives the launches.
  virtual void work_finished(capture_phases& phases) = 0;

  // After the work ran, the device synchronised and the recorder gave the launches: fills `capture`'s image
  // and dropped_ranges. False when there is nothing to decode (no launch), the image then empty.
  virtual bool end_capture(profile_capture& capture, capture_phases& phases) = 0;

  // Ends a begun capture keeping nothing; never throws.
  virtual void abandon_capture() noexcept = 0;
};

// CUPTI's session API: one session across configurations (the default; cupti/profiler_session.hpp says why).
[[nodiscard]] std::unique_ptr<profiler_backend> make_session_backend(
    CUctx_st* context, const std::string& chip, const std::vector<std::uint8_t>& availability);

// CUPTI's range profiler (cupti_range_profiler.h), enabled again for each new configuration.
[[nodiscard]] std::unique_ptr<profiler_backend> make_range_profiler_backend(CUctx_st* context);

// The image's own range names ("0", "1", ... in launch order) replace the recorder's placeholders in
// `capture.launches`; returns how many ranges the image holds.
std::size_t name_ranges(profile_capture& capture);

}  // namespace counterguard::detail
