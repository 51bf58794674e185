// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/blame/sass_profile.hpp"
#include "counterguard/statics/kernel_sass.hpp"

namespace counterguard {

using metric_values = std::map<std::string, std::uint64_t>;

// Which line an instruction of inlined code is blamed on. The line tables give each instruction its inline
// chain: the kernel's own line that calls a function, the line of that function that calls the next, ...,
// the instruction's own line (in device_atomic_functions.hpp for an atomicAdd). The line blamed is the
// outermost frame in the user's sources: outside the CUDA toolkit's include directories (found in the
// cubin's file table, toolkit_sources.hpp) and outside `external_dirs`; the instruction's own line when
// every frame is in them (a toolkit kernel: CUB's, for one).
struct line_attribution {
  std::vector<std::string> external_dirs;  // third-party include directories (--blame-external)
  // Lines are the instructions' own lines, inlined or not, as per-line baselines of schema 1 were keyed (the
  // blamed frame is still worked out, for display).
  bool innermost = false;

  friend bool operator==(const line_attribution& a, const line_attribution& b) {
    return a.external_dirs == b.external_dirs && a.innermost == b.innermost;
  }
  friend bool operator!=(const line_attribution& a, const line_attribution& b) { return !(a == b); }
};

struct blamed_instruction {
  std::uint64_t pc_offset = 0;
  std::string sass;  // "STS [R5], R2" (empty when the map was read without nvdisasm)
  std::string opcode;
  std::optional<source_position> position;  // its own line (the innermost frame)
  std::vector<source_position> frames;      // its inline chain, the kernel's line first, `position` last
  std::size_t blamed_frame = 0;             // index into `frames`: the user's line (line_attribution)
  metric_values values;
};

struct blamed_line {
  std::optional<source_position> position;  // none: instructions no line table row covers
  metric_values values;                     // summed over its instructions
  std::vector<std::size_t> instructions;    // indices into kernel_blame::instructions
  // The opcodes of its memory instructions, sorted, each once ("LDG.E.128", "RED.E.ADD.STRONG.GPU"): a change
  // of instruction kind on the line. None when unknown (read without nvdisasm).
  std::optional<std::vector<std::string>> memory_opcodes;
  // For a line read back from a per-line baseline (no instructions): the inline chains it recorded.
  std::vector<std::string> recorded_chains;
};

// One function's per-instruction counters joined to its SASS and source lines.
struct kernel_blame {
  std::string function;
  std::string mangled;
  std::string architecture;
  std::vector<std::string> toolkit_include_dirs;    // of its cubin (kernel_sass)
  line_attribution attribution;                     // how `lines` were made
  std::vector<blamed_instruction> instructions;     // in PC order
  std::vector<blamed_line> lines;                   // in file and line order
  std::vector<std::uint64_t> unmatched_pc_offsets;  // counted PCs the cubin's function does not have
};

// The index in `frames` (outermost first) of the frame blamed: the outermost one outside `toolkit_dirs` and
// `external_dirs`, else the innermost. 0 for no frames.
[[nodiscard]] std::size_t blamed_frame_of(const std::vector<source_position>& frames,
                                          const std::vector<std::string>& toolkit_dirs,
                                          const std::vector<std::string>& external_dirs);

// The places of `instruction`'s chain from its blamed frame inward: {"kernels.cu:111",
// "device_atomic_functions.hpp:226"}; one place when its own line is blamed; empty without a line.
[[nodiscard]] std::vector<std::string> inline_chain(const blamed_instruction& instruction);

// "kernels.cu:111 -> device_atomic_functions.hpp:226"
[[nodiscard]] std::string chain_text(const std::vector<std::string>& chain);

// Blames `blame`'s instructions on lines again under `attribution` (the lines' values and memory opcodes
// follow).
void attribute_lines(kernel_blame& blame, const line_attribution& attribution);

// Joins a function's counters to the map read_kernel_sass gives for the same function, its instructions
// blamed on lines under `attribution`. Throws input_error when the two name different functions.
[[nodiscard]] kernel_blame join_blame(const sass_function_profile& counters, const kernel_sass& sass,
                                      const line_attribution& attribution = {});

// The profile's functions joined to the cubin in `binary` for the profile's architecture (sm_<compute
// capability>), matched by mangled name. Without nvdisasm (or with lines_only) instructions have no text.
// Functions the binary lacks go to `missing` (each with the reason); when `missing` is null, or no function
// could be joined, the first one is an input_error.
[[nodiscard]] std::vector<kernel_blame> join_profile(const sass_profile& profile, const std::string& binary,
                                                     bool lines_only,
                                                     std::vector<std::string>* missing = nullptr,
                                                     const line_attribution& attribution = {});

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
