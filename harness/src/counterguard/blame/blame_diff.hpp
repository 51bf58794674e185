// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "counterguard/blame/source_line_blame.hpp"

namespace counterguard {

// One source line's metric before and after, and the kinds of memory instruction it gained or lost.
struct blame_change {
  std::string function;
  std::string place;  // "kernels.cu:111": the user's line
  // The file of that line as the compiler recorded it ("/src/app/kernels.cu"; a per-line baseline's line
  // alone: its base name): what places it in a repository (reporters/findings.hpp).
  std::string file;
  std::vector<std::string> chain;  // its inline chain, {"kernels.cu:111", "device_atomic_functions.hpp:226"}
  std::string sass;  // the line's instruction that changed most (text, or "PC 01a0" without nvdisasm)
  std::string metric;
  std::uint64_t before = 0;
  std::uint64_t after = 0;
  // Memory instruction opcodes only the line before had, and only the line after has
  // ("RED.E.ADD.64.STRONG.GPU"
  // -> "ATOMG.E.ADD.64.STRONG.GPU"): a change of instruction kind. Empty when the kinds are the same or
  // unknown.
  std::vector<std::string> opcodes_before;
  std::vector<std::string> opcodes_after;

  [[nodiscard]] bool kind_changed() const { return !opcodes_before.empty() || !opcodes_after.empty(); }
};

// Every (function, line, metric) whose value differs between `before` and `after` (functions matched by
// mangled name, lines by file base name and line), largest |after - before| first; and every line in both
// whose memory instructions changed kind (RED -> ATOM, LDG -> LDG.128, a new STL) while its values did not,
// after those, as one change of the first metric of `metric_order` the line carries (else its first metric).
// A line whose values changed too carries its change of kind on each of its changes. With a `metric_order`,
// only its metrics count as the line's values changing (a per-line baseline keeps fewer counters).
[[nodiscard]] std::vector<blame_change> diff_blame(const std::vector<kernel_blame>& before,
                                                   const std::vector<kernel_blame>& after,
                                                   const std::vector<std::string>& metric_order = {});

}  // namespace counterguard
