// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "counterguard/profiler/sass_metrics_collector.hpp"

namespace counterguard {

// Every SASS metric `chip` has (cuptiSassMetricsGetNumOfMetrics / GetMetrics). CUPTI calls only: callable in
// a program's process through the driver API (the exec injection) as in counterguard's own.
[[nodiscard]] std::vector<sass_metric_details> list_sass_metrics(const std::string& chip,
                                                                 std::FILE* trace = nullptr);

// One collection of per-instruction counters on a CUDA context, from SetConfig and Enable (lazy patching: a
// function is patched at its first launch while enabled) to finish(): the work in between is counted. Only
// CUPTI is called (cuptiProfilerInitialize must have been): the caller synchronises the context itself, with
// the runtime (sass_metrics_collector) or the driver (the exec injection). One per process: a second
// SetConfig after UnsetConfig fails on the H200 (docs/blame.md). With `trace`, each call and its result.
class sass_metrics_session {
 public:
  sass_metrics_session(CUcontext context, std::uint32_t device_index, const std::string& chip,
                       std::vector<sass_metric_choice> metrics, std::FILE* trace = nullptr);
  ~sass_metrics_session();  // disables and unsets what finish() did not
  sass_metrics_session(const sass_metrics_session&) = delete;
  sass_metrics_session& operator=(const sass_metrics_session&) = delete;

  // After the work was synchronised: GetDataProperties, FlushData, Disable, UnsetConfig.
  [[nodiscard]] sass_metrics_capture finish();

 private:
  CUcontext m_context = nullptr;
  std::uint32_t m_device_index = 0;
  std::vector<sass_metric_choice> m_metrics;
  std::vector<std::uint64_t> m_ids;  // m_metrics' CUPTI ids, in order
  std::FILE* m_trace = nullptr;
  bool m_configured = false;
  bool m_enabled = false;
};

}  // namespace counterguard
