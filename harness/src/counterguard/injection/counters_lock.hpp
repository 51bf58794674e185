// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard::injection {

// The GPU's performance counters belong to one process at a time: a second process that enables the range
// profiler while another has it enabled gets CUPTI_ERROR_HARDWARE_BUSY. The processes of one program under
// `counterguard exec` (ranks, children) take this lock, a file in the recording directory, before a profiled
// launch; the range profiler is enabled only while it is held. A process keeps it (and its profiler enabled:
// enabling costs more than a short kernel) until another process waits for it, which a shared lock on a
// second file announces; the holder then lets go after its launch, or at once when it is between launches,
// so ranks that wait for each other at a barrier never wait for the lock forever.
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
  [[nodiscard]] bool held() const { return m_held; }
  // Whether another process is waiting in acquire().
  [[nodiscard]] bool others_waiting();
  [[nodiscard]] const std::string& problem() const { return m_problem; }

 private:
  [[nodiscard]] bool open_files();

  std::string m_path;
  std::string m_problem;
  int m_descriptor = -1;
  int m_waiting_descriptor = -1;  // <path>.waiting: shared-locked by the processes waiting
  bool m_held = false;
};

}  // namespace counterguard::injection
