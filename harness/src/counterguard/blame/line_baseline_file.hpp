// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <optional>
#include <string>

#include "counterguard/blame/line_profile.hpp"

namespace counterguard {

// Version of the per-line baseline format (docs/blame.md). Bump on any incompatible change. 2: lines are the
// user's lines (inlined code blamed on its caller, source_line_blame.hpp), with their inline chains and
// memory opcodes; schema 1 files still read, their lines keyed by the instructions' own lines.
inline constexpr int line_baseline_schema_version = 2;

// baselines/<gpu_key>/<suite>.lines.json, written by `baseline update --with-lines`: the per-line profile of
// each case instance's exact counters, what `run` compares a regressed case's blame with.
struct line_baseline_file {
  int schema_version = line_baseline_schema_version;
  std::string gpu_key;
  std::string suite;
  std::string chip;
  std::map<std::string, line_profile> cases;  // by case instance name (a schema 1 file's: innermost lines)
};

[[nodiscard]] std::string line_baseline_path(const std::string& directory, const std::string& gpu_key,
                                             const std::string& suite);

// The JSON text in a stable order (instances by name), so equal profiles give equal bytes.
[[nodiscard]] std::string render_line_baseline(const line_baseline_file& file);
// Throws input_error naming `path`, the field and what would be valid.
[[nodiscard]] line_baseline_file parse_line_baseline(const std::string& text, const std::string& path);
// std::nullopt when the file does not exist.
[[nodiscard]] std::optional<line_baseline_file> load_line_baseline_file(const std::string& path);
// Atomically: a crash leaves the old file or the new one, never half of one.
void save_line_baseline_file(const std::string& path, const line_baseline_file& file);

}  // namespace counterguard
