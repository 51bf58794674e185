// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "counterguard/profiler/sass_metrics_collector.hpp"

namespace counterguard {

// One function's per-instruction counters from one case's launches.
struct sass_function_profile {
  std::string mangled;
  std::string function;  // demangled, without parameters
  std::uint32_t cubin_crc = 0;
  std::map<std::uint64_t, std::map<std::string, std::uint64_t>> values_by_pc;  // PC offset -> metric -> value
};

// What `counterguard blame --record F.json` writes: enough to redo the join and the diff on a CPU.
struct sass_profile {
  std::string gpu;             // "NVIDIA H200"
  std::string chip;            // "GH100"
  int compute_capability = 0;  // 90: the cubin for sm_90 is the one that ran
  std::string case_name;       // the case instance
  std::string binary;          // the program holding the kernels' cubins
  std::vector<sass_metric_choice> metrics;
  std::size_t dropped_records = 0;
  std::vector<sass_function_profile> functions;
};

[[nodiscard]] sass_profile make_sass_profile(const sass_metrics_capture& capture,
                                             const device_description& device, const std::string& case_name,
                                             const std::string& binary);

[[nodiscard]] nlohmann::json to_json(const sass_profile& profile);
// Fields at fault are input_errors naming `source` (the file) and the field.
[[nodiscard]] sass_profile sass_profile_from_json(const nlohmann::json& json, const std::string& source);

void write_sass_profile(const std::string& path, const sass_profile& profile);
[[nodiscard]] sass_profile read_sass_profile(const std::string& path);

}  // namespace counterguard
