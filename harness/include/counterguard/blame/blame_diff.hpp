#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "counterguard/blame/source_line_blame.hpp"

namespace counterguard {

// One source line's metric before and after.
struct blame_change {
  std::string function;
  std::string place;  // "transpose.cu:34"
  std::string sass;   // the line's instruction that changed most (text, or "PC 01a0" without nvdisasm)
  std::string metric;
  std::uint64_t before = 0;
  std::uint64_t after = 0;
};

// Every (function, line, metric) whose value differs between `before` and `after` (functions matched by
// mangled name, lines by file base name and line), largest |after - before| first.
[[nodiscard]] std::vector<blame_change> diff_blame(const std::vector<kernel_blame>& before,
                                                   const std::vector<kernel_blame>& after);

// "transpose.cu:34  STS [R7], R8  shared excess wavefronts 0 -> 4063232"
[[nodiscard]] std::string format_change(const blame_change& change);

}  // namespace counterguard
