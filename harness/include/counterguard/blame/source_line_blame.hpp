#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/blame/sass_profile.hpp"
#include "counterguard/statics/kernel_sass.hpp"

namespace counterguard {

using metric_values = std::map<std::string, std::uint64_t>;

struct blamed_instruction {
  std::uint64_t pc_offset = 0;
  std::string sass;  // "STS [R5], R2" (empty when the map was read without nvdisasm)
  std::string opcode;
  std::optional<source_position> position;
  metric_values values;
};

struct blamed_line {
  std::optional<source_position> position;  // none: instructions no line table row covers
  metric_values values;                     // summed over its instructions
  std::vector<std::size_t> instructions;    // indices into kernel_blame::instructions
};

// One function's per-instruction counters joined to its SASS and source lines.
struct kernel_blame {
  std::string function;
  std::string mangled;
  std::string architecture;
  std::vector<blamed_instruction> instructions;     // in PC order
  std::vector<blamed_line> lines;                   // in file and line order
  std::vector<std::uint64_t> unmatched_pc_offsets;  // counted PCs the cubin's function does not have
};

// Joins a function's counters to the map read_kernel_sass gives for the same function. Throws input_error
// when the two name different functions.
[[nodiscard]] kernel_blame join_blame(const sass_function_profile& counters, const kernel_sass& sass);

// The profile's functions joined to the cubin in `binary` for the profile's architecture (sm_<compute
// capability>), matched by mangled name. Without nvdisasm (or with lines_only) instructions have no text.
// Functions the binary lacks go to `missing` (each with the reason); when `missing` is null, or no function
// could be joined, the first one is an input_error.
[[nodiscard]] std::vector<kernel_blame> join_profile(const sass_profile& profile, const std::string& binary,
                                                     bool lines_only,
                                                     std::vector<std::string>* missing = nullptr);

// The metrics a profile's blame shows, in order: the derived excess counts its metrics allow (first: they are
// what a regression of bank conflicts or coalescing moves), then the collected ones.
[[nodiscard]] std::vector<std::string> blamed_metric_names(const sass_profile& profile);

// The lines with a nonzero `metric`, largest first (ties: file and line order), at most `top` (0: all).
[[nodiscard]] std::vector<const blamed_line*> rank_lines(const kernel_blame& blame, const std::string& metric,
                                                         std::size_t top = 0);

// "transpose.cu:34" (the file's base name), "?" without a position.
[[nodiscard]] std::string line_place(const std::optional<source_position>& position);

// The instruction of `line` with the largest `metric`.
[[nodiscard]] const blamed_instruction& top_instruction(const kernel_blame& blame, const blamed_line& line,
                                                        const std::string& metric);

}  // namespace counterguard
