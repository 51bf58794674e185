#pragma once
// What counterguard::profile measures, and the profiling behind it, without GoogleTest: the library holds
// this part, and counterguard/gtest/profile.hpp adds the test-framework glue, compiled with the user's own
// GoogleTest.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/metrics/metric_class.hpp"

namespace counterguard {

struct case_result;  // counterguard's record of a measurement (internal)

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

  // Profiling was not possible here (no GPU, no permission, under `counterguard exec`): why, and the test
  // was marked skipped.
  [[nodiscard]] bool skipped() const { return !m_skip_reason.empty(); }
  [[nodiscard]] const std::string& skip_reason() const { return m_skip_reason; }
  // Whether `metric` was measured; its value for the work as a whole (NaN when not measured); its class.
  [[nodiscard]] bool has(const std::string& metric) const;
  [[nodiscard]] double value(const std::string& metric) const;
  [[nodiscard]] metric_class cls(const std::string& metric) const;
  // The same measurement restricted to the launches of one kernel (its demangled name or last `::` part).
  [[nodiscard]] profile_result for_kernel(const std::string& kernel) const;
  // The launches' kernels, for messages: "example::reduce, example::finish".
  [[nodiscard]] std::string kernel_names() const;

 private:
  std::shared_ptr<const case_result> m_result;
  std::string m_skip_reason;
};

// Why profiling is not possible in this process, or nothing when it is (creates the profiler once).
[[nodiscard]] std::optional<std::string> profiling_unavailable(const profile_options& options = {});

// Whether `counterguard exec` runs this binary: then profile() runs its work unprofiled (the injection
// library profiles the launches its cases select) and marks the test skipped for its counters.
[[nodiscard]] bool profiled_by_exec();

namespace detail {

// counterguard::profile without the test framework: a skipped() result, with the reason, where profiling is
// not possible (under exec the work still runs).
[[nodiscard]] profile_result profile_work(const std::vector<std::string>& metrics,
                                          const std::function<void()>& work, const profile_options& options);

enum class metric_relation { equal, at_most, at_least, near };

// The failure message of a metric assertion, or nothing when it holds (or the result was skipped).
[[nodiscard]] std::optional<std::string> metric_check_failure(
    const char* result_text, const char* metric_text, const char* bound_text, const profile_result& result,
    const std::string& metric, double bound, metric_relation relation, double relative_tolerance = 0.0);

}  // namespace detail
}  // namespace counterguard
