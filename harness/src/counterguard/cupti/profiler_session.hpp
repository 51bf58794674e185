// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

struct CUctx_st;

namespace counterguard::detail {

// One profiling session of CUPTI's session API (cuptiProfilerBeginSession, kernel replay, auto range) kept
// open across profiler configurations. Why not the range profiler: on the H200 its first capture after each
// Enable costs about 145 ms of driver time, and a new configuration needs a new Enable; here a session costs
// about 60 ms once and a configuration switch (UnsetConfig, SetConfig) under 0.1 ms, with the same values
// (validation/h200.md, "Findings"). The session's counter-data image holds the raw counters of every
// configuration it may be given; after each capture its bytes are copied out (the capture's own image,
// holding its ranges only) and reset in place, which the H200 showed to give the next capture ranges from 0
// again.
//
// Seen on the H200: switching from a configuration with instrumented (SASS-patched) counters to one without
// them crashes the process inside CUPTI, so such a switch starts a new session instead (worker configurations
// are ordered so that it does not happen: worker_configurations).
class profiler_session {
 public:
  profiler_session(CUctx_st* context, std::string chip, std::vector<std::uint8_t> counter_availability);
  ~profiler_session();
  profiler_session(const profiler_session&) = delete;
  profiler_session& operator=(const profiler_session&) = delete;

  // Makes room for captures of these metric sets with up to `max_ranges` ranges each, so that the session
  // does not restart when they come (a restart costs about 70 ms).
  void reserve(const std::vector<std::vector<std::string>>& metric_sets, int max_ranges);

  // Profiles the kernels launched between begin_capture and end_capture with `config` (a configuration image
  // of `raw_metrics`), up to `max_ranges` of them; end_capture returns the counter-data image of those ranges
  // and expects the device synchronised. `restarted`: set when this capture began a new session.
  // abandon_capture() ends a begun capture without keeping anything (a failed launch); it never throws.
  void begin_capture(const std::vector<std::uint8_t>& config, const std::vector<std::string>& raw_metrics,
                     int max_ranges, bool& restarted);
  [[nodiscard]] std::vector<std::uint8_t> end_capture();
  void abandon_capture() noexcept;

  // Ends the open session (releasing the GPU's counters to another process); the next capture begins a new
  // one. Never throws.
  void close() noexcept { end(); }

 private:
  void begin(const std::set<std::string>& metrics, int max_ranges);
  void end() noexcept;
  void set_config(const std::vector<std::uint8_t>& config, bool instrumented);
  void reset_image() noexcept;

  CUctx_st* m_context;
  std::string m_chip;
  std::vector<std::uint8_t> m_availability;
  bool m_open = false;
  std::set<std::string> m_metrics;  // the raw counters the open session's image holds
  int m_max_ranges = 0;
  const std::uint8_t* m_config = nullptr;  // the configuration set in the open session, if any
  std::size_t m_config_size = 0;
  bool m_config_instrumented = false;
  std::vector<std::uint8_t> m_image;
  std::vector<std::uint8_t> m_scratch;
  std::vector<std::uint8_t> m_pristine_image;  // as initialised: copied back after each capture
  std::vector<std::uint8_t> m_pristine_scratch;
  bool m_capturing = false;
};

// Whether `run` and the exec injection profile through the session API (COUNTERGUARD_PROFILER_API: "session",
// the default, or "range" for the range profiler). Throws input_error for another value.
[[nodiscard]] bool session_api_chosen();

}  // namespace counterguard::detail
