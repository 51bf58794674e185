#pragma once
// What profiling a piece of work inside the calling process measured: counterguard::profile in a GoogleTest
// binary and the Python package (through the C ABI) read the same result.

#include <memory>
#include <string>

#include "counterguard/metrics/metric_class.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

struct profile_options {
  int device = -1;         // -1: $COUNTERGUARD_DEVICE, else 0
  int max_launches = 256;  // kernel launches the work may make (the counter-data image holds this many)
  double wait_for_gpu_seconds = 600.0;  // while another counterguard or profiler holds the GPU
};

struct profiled_work;  // what was observed, kept for for_kernel (process_profiler.cpp)

// What profiling a piece of work measured.
class profile_result {
 public:
  profile_result() = default;
  explicit profile_result(case_result result, bool skipped = false);
  profile_result(case_result result, std::shared_ptr<const profiled_work> work);

  // Profiling was not possible here (no GPU, no permission): the work was not measured.
  [[nodiscard]] bool skipped() const { return m_skipped; }
  // Whether `metric` was measured; its value for the work as a whole (NaN when not measured); its class.
  [[nodiscard]] bool has(const std::string& metric) const;
  [[nodiscard]] double value(const std::string& metric) const;
  [[nodiscard]] metric_class cls(const std::string& metric) const;
  // The same measurement restricted to the launches of one kernel (its demangled name or last `::` part),
  // totalled the way a case totals its launches (fill_measurements: a ratio over two launches is the ratio
  // of the summed counters).
  [[nodiscard]] profile_result for_kernel(const std::string& kernel) const;
  // The launches' kernels, for messages: "example::reduce, example::finish".
  [[nodiscard]] std::string kernel_names() const;
  [[nodiscard]] const case_result& result() const { return m_result; }

 private:
  case_result m_result;
  bool m_skipped = false;
  std::shared_ptr<const profiled_work> m_work;
};

}  // namespace counterguard
