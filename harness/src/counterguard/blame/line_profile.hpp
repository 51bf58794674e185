// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/blame/source_line_blame.hpp"

namespace counterguard {

class json_reader;

// One source line's per-instruction counters summed, as a per-line baseline keeps them.
struct line_profile_line {
  std::string place;  // "transpose.cu:34" (file base name: the same in any checkout), "?" without a line
  metric_values values;
  // The inline chains of its instructions that carry those values ("kernels.cu:111 ->
  // device_atomic_functions.hpp:226"), sorted; none when its own code carries them.
  std::vector<std::string> chains;
  // The opcodes of its memory instructions (blamed_line::memory_opcodes); none: recorded without nvdisasm.
  std::optional<std::vector<std::string>> memory_opcodes;
};

struct line_profile_function {
  std::string mangled;
  std::string function;
  std::vector<line_profile_line> lines;  // in the blame's file and line order
};

// A case instance's counters per source line: no PCs (they move whenever the code changes, which is when a
// baseline is compared with), only the metrics kept and only nonzero values, so a baseline stays small.
struct line_profile {
  std::vector<line_profile_function> functions;
  // How its instructions were blamed on lines: a new blame is compared with it the same way.
  line_attribution attribution;
};

// The lines of `blames` with a nonzero value of one of `metrics` (every metric when empty), those values
// only, under the blames' attribution.
[[nodiscard]] line_profile make_line_profile(const std::vector<kernel_blame>& blames,
                                             const std::vector<std::string>& metrics);

// The profile as the blame of its functions' lines (no instructions), for diff_blame against a new blame.
[[nodiscard]] std::vector<kernel_blame> to_kernel_blames(const line_profile& profile);

[[nodiscard]] nlohmann::json to_json(const line_profile& profile);
// `path`: the profile's field path in `in`'s file ("cases.transpose/naive"); errors name file and field.
// `innermost_lines`: a profile of a schema 1 file, keyed by the instructions' own lines.
[[nodiscard]] line_profile line_profile_from_json(const json_reader& in, const nlohmann::json& json,
                                                  const std::string& path, bool innermost_lines = false);

}  // namespace counterguard
