// SPDX-License-Identifier: Apache-2.0
// device_profiler's counters through CUPTI's session API (cupti/profiler_session: one session kept open
// across configurations, so a configuration switch costs under 0.1 ms; validation/h200.md, "Findings").
#include <memory>

#include "counterguard/cupti/profiler_session.hpp"
#include "detail/profiler_backend.hpp"

namespace counterguard::detail {
namespace {

class session_backend final : public profiler_backend {
 public:
  session_backend(CUctx_st* context, const std::string& chip, const std::vector<std::uint8_t>& availability)
      : m_session(context, chip, availability) {}

  void reserve(const std::vector<std::vector<std::string>>& metric_sets, int max_ranges) override {
    m_session.reserve(metric_sets, max_ranges);
  }

  void begin_capture(const profiler_configuration& config, const std::vector<std::string>& raw_metrics,
                     int max_ranges, std::vector<std::uint8_t>& /*image: the session's own until the end*/,
                     capture_phases& phases) override {
    phases.mark("configure");
    bool restarted = false;
    m_session.begin_capture(config.image, raw_metrics, max_ranges, restarted);
    phases.mark(restarted ? "session_begin" : "enable");
  }

  void work_finished(capture_phases& phases) override { phases.mark("launch"); }

  bool end_capture(profile_capture& capture, capture_phases& phases) override {
    capture.image.bytes = m_session.end_capture();
    phases.mark("collect");
    const std::size_t ranges = name_ranges(capture);
    capture.dropped_ranges =
        capture.launches.size() > ranges ? static_cast<int>(capture.launches.size() - ranges) : 0;
    return true;
  }

  void abandon_capture() noexcept override { m_session.abandon_capture(); }

 private:
  profiler_session m_session;
};

}  // namespace

std::unique_ptr<profiler_backend> make_session_backend(CUctx_st* context, const std::string& chip,
                                                       const std::vector<std::uint8_t>& availability) {
  return std::make_unique<session_backend>(context, chip, availability);
}

}  // namespace counterguard::detail
