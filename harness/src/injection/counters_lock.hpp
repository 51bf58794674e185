#pragma once

#include <string>

namespace counterguard::injection {

// The GPU's performance counters belong to one process at a time: a second process that enables the range
// profiler while another has it enabled gets CUPTI_ERROR_HARDWARE_BUSY. The processes of one program under
// `counterguard exec` (ranks, children) take this lock, a file in the recording directory, around each
// profiled launch; the range profiler is enabled only while it is held. Per launch, not per process, so
// ranks that wait for each other (a barrier between launches) never wait for the lock forever.
class counters_lock {
 public:
  explicit counters_lock(std::string path);
  ~counters_lock();
  counters_lock(const counters_lock&) = delete;
  counters_lock& operator=(const counters_lock&) = delete;

  // Waits up to `seconds` for the lock; false when another process kept it that long (or the file cannot
  // be opened: then `problem()` says why).
  [[nodiscard]] bool acquire(double seconds);
  void release() noexcept;
  [[nodiscard]] const std::string& problem() const { return m_problem; }

 private:
  std::string m_path;
  std::string m_problem;
  int m_descriptor = -1;
  bool m_held = false;
};

}  // namespace counterguard::injection
