// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "counterguard/metrics/metric_class.hpp"

namespace counterguard {

// Where a metric's value comes from.
enum class metric_source {
  cupti,     // raw CUPTI counters, or a formula of them evaluated from the same counter data
  compiler,  // the compiler's resource report for the target architecture (no GPU needed)
  launch,    // the CUDA runtime at launch: cudaFuncGetAttributes, the occupancy calculator
};

// A metric a case can name: a documented alias or a raw CUPTI name.
struct metric_definition {
  std::string name;
  metric_class cls = metric_class::exact;
  metric_direction direction = metric_direction::lower_is_better;
  metric_source source = metric_source::cupti;
  // cupti: a muparser expression over raw CUPTI names (a raw name alone for a plain alias);
  // compiler/launch: the resource field ("registers", "spill_store_bytes", ...).
  std::string formula;
  std::vector<std::string> raw_inputs;  // the raw CUPTI names the formula reads
  std::string unit;
  std::string description;
  // True when every input is a .sum counter, so a case's total over several kernels is the formula of
  // the summed inputs (a per-request ratio stays a ratio).
  bool summable = false;
  // cupti: the same value from other counters, those the metric read before (a formula over
  // `raw_inputs_before`). Used only for counter data that lacks `raw_inputs` and holds these: `evaluate` of a
  // recording made by an earlier version gives the values it gave then.
  std::string formula_before;
  std::vector<std::string> raw_inputs_before;
};

[[nodiscard]] const char* to_string(metric_source source);  // "cupti", "compiler", "launch"

// The catalogue entry of a metric as tools read it (`counterguard list metrics --json`, the C ABI's
// catalogue): name, class, direction, source, formula, raw inputs, summable, unit and description.
[[nodiscard]] nlohmann::json metric_definition_json(const metric_definition& metric);

}  // namespace counterguard
