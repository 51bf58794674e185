// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/automatic_replay.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace counterguard {
namespace {

// Kernel replay on the H200 beyond a launch's first pass, with the save on the device: about 16 ms, 6.5 ms
// per GiB the program holds (22 / 76 / 425 ms at 1 / 16 / 64 GiB, whatever the passes: CUPTI saves once) and
// a few ms per pass past the second (37.6 ms for 5 passes at 0.6 GiB, instrumented ones among them).
constexpr double fixed_milliseconds = 16.0;
constexpr double milliseconds_per_gib = 6.5;
constexpr double milliseconds_per_further_pass = 4.0;
// A one-pass launch's profiling until one is measured (3.7 ms on the H200 for the built-in kernels).
constexpr double default_one_pass_milliseconds = 4.0;
// Kernel replay is kept while it costs at most this many times what further runs would: it needs no
// deterministic program, and the runs' estimate only counts the program's time so far.
constexpr double kernel_replay_preference = 2.0;
constexpr double bytes_per_gib = 1024.0 * 1024.0 * 1024.0;

double gib(std::uint64_t bytes) {
  return static_cast<double>(bytes) / bytes_per_gib;
}

}  // namespace

double automatic_replay::estimated_restore_milliseconds(std::uint64_t program_bytes, int passes) {
  if (passes < 2)
    return 0.0;
  return fixed_milliseconds + milliseconds_per_gib * gib(program_bytes) +
         milliseconds_per_further_pass * (passes - 2);
}

bool automatic_replay::kernel_replay(const launch_outlook& launch) {
  ++m_profiled;
  if (m_switched)
    return false;
  const std::uint64_t program_bytes =
      launch.bytes_in_use > m_save_buffer_bytes ? launch.bytes_in_use - m_save_buffer_bytes : 0;
  const std::uint64_t room = launch.bytes_free + m_save_buffer_bytes;
  const int further_runs = std::max(1, launch.pass_groups - 1);
  if (program_bytes > room) {
    m_switched = true;
    m_decision = fmt::format(
        "application replay from profiled launch {}: kernel replay would save the {:.1f} GiB the program "
        "holds "
        "to host memory ({:.1f} GiB free on the device); {} further run{} of the program",
        m_profiled, gib(program_bytes), gib(room), further_runs, further_runs == 1 ? "" : "s");
    return false;
  }
  const double estimate = m_measured_milliseconds
                              ? *m_measured_milliseconds
                              : estimated_restore_milliseconds(program_bytes, launch.kernel_replay_passes);
  const double to_come =
      static_cast<double>(launch.launches_to_come ? std::max<std::int64_t>(1, *launch.launches_to_come)
                                                  : std::max(1, m_replayed));
  const double kernel_milliseconds = m_spent_milliseconds + estimate * to_come;
  const double one_pass = m_one_pass_milliseconds.value_or(default_one_pass_milliseconds);
  const double runs_milliseconds =
      further_runs * (launch.program_seconds * 1000.0 + (m_profiled - 1 + to_come) * one_pass);
  if (kernel_milliseconds <= kernel_replay_preference * runs_milliseconds) {
    m_bytes_before = launch.bytes_in_use;
    m_decision = fmt::format(
        "kernel replay: {:.0f} ms estimated for the launches' further passes at {:.1f} GiB held, against {} "
        "further run{} of the program ({:.2f} s at least)",
        kernel_milliseconds, gib(program_bytes), further_runs, further_runs == 1 ? "" : "s",
        runs_milliseconds / 1000.0);
    return true;
  }
  m_switched = true;
  m_decision = fmt::format(
      "application replay from profiled launch {}: kernel replay estimated {:.2f} s for the launches' "
      "further "
      "passes at {:.1f} GiB held, {} further run{} of the program {:.2f} s",
      m_profiled, kernel_milliseconds / 1000.0, gib(program_bytes), further_runs,
      further_runs == 1 ? "" : "s", runs_milliseconds / 1000.0);
  return false;
}

void automatic_replay::one_pass_launch_took(double milliseconds) {
  m_one_pass_milliseconds = milliseconds;
}

void automatic_replay::kernel_replayed(double milliseconds, int passes, std::uint64_t bytes_in_use_after) {
  ++m_replayed;
  const double one_pass = m_one_pass_milliseconds.value_or(default_one_pass_milliseconds);
  const double beyond = std::max(0.0, milliseconds - one_pass);
  m_spent_milliseconds += beyond;
  if (passes > 1)
    m_measured_milliseconds = beyond;
  // What stayed allocated across the launch is CUPTI's save buffer (a kernel allocates nothing).
  if (bytes_in_use_after > m_bytes_before)
    m_save_buffer_bytes = std::max(m_save_buffer_bytes, bytes_in_use_after - m_bytes_before);
}

}  // namespace counterguard
