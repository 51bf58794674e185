// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace counterguard {

// While one lives, SIGINT, SIGTERM and SIGHUP do not kill the process: they are recorded, so the run can
// stop its worker processes, write nothing half-done and exit with 128 + the signal's number
// (interrupted_error). The previous handlers come back when the last guard goes.
class interruption_guard {
 public:
  interruption_guard();
  ~interruption_guard();
  interruption_guard(const interruption_guard&) = delete;
  interruption_guard& operator=(const interruption_guard&) = delete;

  // The first signal received since the guard was installed; 0 when none.
  [[nodiscard]] static int pending_signal();
  // A descriptor that becomes readable when a signal arrives, for poll(); -1 without a guard.
  [[nodiscard]] static int wake_descriptor();
  // Throws interrupted_error when a signal arrived.
  static void throw_if_interrupted();
};

}  // namespace counterguard
