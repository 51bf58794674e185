// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>

namespace counterguard {

// Only one process can profile a GPU at a time (CUPTI_ERROR_HARDWARE_BUSY for the second). A gpu_lock queues
// counterguard processes instead of failing them: an exclusive flock on
// $COUNTERGUARD_LOCK_DIR/counterguard-gpu-<uuid>.lock (default directory /tmp), held while the run profiles.
// The kernel releases it when the process ends, however it ends. Runs in containers with separate /tmp
// directories share a GPU safely only when COUNTERGUARD_LOCK_DIR names a directory they share.
class gpu_lock {
 public:
  // Waits up to `wait_seconds` for the lock of the GPU `uuid`; `on_wait` is called once with a message naming
  // the holder when the lock is taken. Throws environment_error (gpu_wait_expired) when the wait expires and
  // interrupted_error when a signal arrives while waiting (with an interruption_guard alive).
  gpu_lock(const std::string& uuid, double wait_seconds,
           const std::function<void(const std::string&)>& on_wait);
  ~gpu_lock();
  gpu_lock(const gpu_lock&) = delete;
  gpu_lock& operator=(const gpu_lock&) = delete;

  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  std::string m_path;
  int m_fd = -1;
};

// The lock file of a GPU: $COUNTERGUARD_LOCK_DIR (or /tmp) / counterguard-gpu-<uuid>.lock.
[[nodiscard]] std::string gpu_lock_path(const std::string& uuid);

// "GPU-1b2c..." for device `ordinal` as the CUDA runtime sees it, or empty when there is no such device (the
// worker then reports why).
[[nodiscard]] std::string gpu_uuid(int ordinal);

}  // namespace counterguard
