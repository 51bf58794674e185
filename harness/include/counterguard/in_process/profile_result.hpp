// SPDX-License-Identifier: Apache-2.0
#pragma once
// What profiling a piece of work inside the calling process measured, and the profiling behind it, without a
// test framework: counterguard::profile in a GoogleTest binary (counterguard/gtest/profile.hpp adds the
// GoogleTest glue, compiled with the user's own GoogleTest) and the Python package (through the C ABI) read
// the same result. Installed: it includes no header of counterguard's internals.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/metrics/metric_class.hpp"

namespace counterguard {

struct case_result;    // counterguard's record of a measurement (internal)
struct profiled_work;  // what was observed, kept for for_kernel (internal)

struct profile_options {
  int device = -1;         // -1: $COUNTERGUARD_DEVICE, else 0
  int max_launches = 256;  // kernel launches the work may make (the counter-data image holds this many)
  double wait_for_gpu_seconds = 600.0;  // while another counterguard or profiler holds the GPU
};

// What profiling a piece of work measured. A value type: copies share the measurement, which never changes.
class profile_result {
 public:
  profile_result() = default;
  explicit profile_result(case_result result, std::string skip_reason = {});
  profile_result(case_result result, std::shared_ptr<const profiled_work> work);

  // Profiling was not possible here (no GPU, no permission, under `counterguard exec`): why; the work was not
  // measured.
  [[nodiscard]] bool skipped() const { return !m_skip_reason.empty(); }
  [[nodiscard]] const std::string& skip_reason() const { return m_skip_reason; }
  // Whether `metric` was measured; its value for the work as a whole (NaN when not measured); its class.
  [[nodiscard]] bool has(const std::string& metric) const;
  [[nodiscard]] double value(const std::string& metric) const;
  [[nodiscard]] metric_class cls(const std::string& metric) const;
  // The same measurement restricted to the launches of one kernel (its demangled name or last `::` part),
  // totalled the way a case totals its launches (a ratio over two launches is the ratio of the summed
  // counters).
  [[nodiscard]] profile_result for_kernel(const std::string& kernel) const;
  // The launches' kernels, for messages: "example::reduce, example::finish".
  [[nodiscard]] std::string kernel_names() const;

 private:
  // The record behind a result, for counterguard's own code (counterguard/in_process/process_profiler.hpp).
  friend const case_result& result_record(const profile_result& result);
  // What was observed (counter data, launches), for saving the block
  // (counterguard/in_process/recorded_block.hpp).
  friend const profiled_work* observed_work(const profile_result& result);

  std::shared_ptr<const case_result> m_result;
  std::shared_ptr<const profiled_work> m_work;
  std::string m_skip_reason;
};

// Why profiling is not possible in this process, or nothing when it is (opens the process's one profiler
// once; the options of the first call choose the device).
[[nodiscard]] std::optional<std::string> profiling_unavailable(const profile_options& options = {});

// Whether `counterguard exec` runs this process: its injection library is then the process's profiler, and
// in-process profiling is unavailable (the work runs unprofiled; exec's cases select its launches).
[[nodiscard]] bool profiled_by_exec();

// Profiles the kernels `work` launches (from any thread, through the CUDA runtime or driver). `metrics` are
// aliases (docs/metrics.md) or raw CUPTI names; an unknown name throws input_error. Where profiling is not
// possible the result is skipped(), with the reason, and the work runs only under `counterguard exec`.
// counterguard::profile without the test framework.
[[nodiscard]] profile_result profile_work(const std::vector<std::string>& metrics,
                                          const std::function<void()>& work,
                                          const profile_options& options = {});

// How an assertion compares a measured metric with its bound.
enum class metric_relation { equal, at_most, at_least, near };

// The failure message of the assertion that `metric` of `result` stands in `relation` to `bound` (within
// `relative_tolerance` for near), or nothing when it holds or the result was skipped. The *_text arguments
// are the assertion's own source text, for the message.
[[nodiscard]] std::optional<std::string> metric_check_failure(
    const char* result_text, const char* metric_text, const char* bound_text, const profile_result& result,
    const std::string& metric, double bound, metric_relation relation, double relative_tolerance = 0.0);

}  // namespace counterguard
