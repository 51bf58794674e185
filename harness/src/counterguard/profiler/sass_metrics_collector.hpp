// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/profiler/device_profiler.hpp"
#include "counterguard/profiler/sass_metric_names.hpp"

namespace counterguard {

// One instruction's counters, as CUPTI's SASS metrics API reports it.
struct sass_pc_record {
  std::uint32_t cubin_crc = 0;                  // CUPTI's CRC of the cubin the function was loaded from
  std::uint32_t function_index = 0;             // the function's symbol index in its module
  std::string function;                         // the mangled name
  std::uint32_t pc_offset = 0;                  // byte offset of the instruction in its function
  std::map<std::string, std::uint64_t> values;  // by friendly metric name, summed over instances
};

// What collecting SASS metrics around some work produced.
struct sass_metrics_capture {
  std::vector<sass_metric_choice> metrics;
  std::vector<sass_pc_record> records;  // sorted by function and PC offset
  std::size_t dropped_records = 0;      // reported by cuptiSassMetricsDisable (nonzero: data was lost)
};

struct sass_metric_details {
  std::string name;
  std::string description;
  std::uint64_t id = 0;
};

// Per-instruction counters from CUPTI's SASS metrics API (cupti_sass_metrics.h) on one device: CUPTI patches
// each kernel's SASS to count per instruction (no replay: the work runs once). Collect in a process without
// a device_profiler: the two were not verified together. Construction initialises CUDA and CUPTI and throws
// environment_error when the device cannot collect SASS metrics. With `trace`, every CUPTI call and what it
// returned is written there, one line each.
class sass_metrics_collector {
 public:
  explicit sass_metrics_collector(int device_ordinal = 0, std::FILE* trace = nullptr);
  ~sass_metrics_collector();
  sass_metrics_collector(const sass_metrics_collector&) = delete;
  sass_metrics_collector& operator=(const sass_metrics_collector&) = delete;

  [[nodiscard]] const device_description& device() const;
  // Every SASS metric the device's chip has (cuptiSassMetricsGetNumOfMetrics / GetMetrics).
  [[nodiscard]] const std::vector<sass_metric_details>& available_metrics() const;
  [[nodiscard]] std::vector<std::string> available_metric_names() const;

  // Runs `work` with `metrics` collected per instruction (SetConfig, Enable with lazy patching, work,
  // synchronise, GetDataProperties, FlushData, Disable, UnsetConfig).
  [[nodiscard]] sass_metrics_capture collect(const std::vector<sass_metric_choice>& metrics,
                                             const std::function<void()>& work);

 private:
  struct state;
  std::unique_ptr<state> m_state;
};

}  // namespace counterguard
