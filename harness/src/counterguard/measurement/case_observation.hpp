// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/core/json_reader.hpp"
#include "counterguard/cupti/counter_data_image.hpp"
#include "counterguard/profiler/profiled_launch.hpp"

namespace counterguard {

// What running one case produced, on the GPU now or read back from a recording: the input of measure_case.
struct case_observation {
  std::vector<profiled_launch> launches;         // one per profiled range, in launch order
  counter_data_image image;                      // no bytes: no counters were collected
  std::vector<std::string> raw_metrics;          // the raw CUPTI metrics the image holds
  std::vector<std::string> metrics;              // every metric measured (the plan's names, extras included)
  std::map<std::string, double> kernel_metrics;  // what the kernel reported itself (runtime_metrics)
  std::optional<bool> verified;                  // unset when the kernel has no verification
  std::string verification_message;
  bool unverified = false;  // the variant registers no verification (array_kernel without verify)
  int passes = 0;
  // Counters of the same launches collected into other images: `exec`'s application replay collects each
  // launch's pass groups in runs of their own. Evaluated with `image`, range by range.
  struct further_counters {
    counter_data_image image;
    std::vector<std::string> raw_metrics;
  };
  std::vector<further_counters> further;
};

// The part of an observation that is not counter data or launches, as a counter-data archive keeps it in its
// metadata: {"metrics": [...], "kernel_metrics": {...}, "verified": true|false|null, "verification_message"}.
[[nodiscard]] nlohmann::json observation_outcome_to_json(const case_observation& observation);
// Reads that metadata back; recordings made before "metrics" was kept lack it (then only the case's
// expectations are measured). Malformed fields are input_errors naming `field`.
void read_observation_outcome(const json_reader& reader, const nlohmann::json& metadata,
                              const std::string& field, case_observation& observation);

}  // namespace counterguard
