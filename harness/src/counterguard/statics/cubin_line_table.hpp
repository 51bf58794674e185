// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "counterguard/statics/binary_view.hpp"

namespace counterguard {

// A place in CUDA source code.
struct source_position {
  std::string file;  // as the compiler recorded it (absolute for nvcc)
  int line = 0;
  int column = 0;  // 0: not recorded (nvcc -lineinfo records none)

  friend bool operator==(const source_position& a, const source_position& b) {
    return a.file == b.file && a.line == b.line && a.column == b.column;
  }
  friend bool operator<(const source_position& a, const source_position& b) {
    return a.file != b.file ? a.file < b.file : a.line != b.line ? a.line < b.line : a.column < b.column;
  }
};

// One row of a function's line table: the instructions from `offset` up to the next row's offset come from
// `position`. For an inlined function, `inlined_at` lists the call sites, innermost first (the last one is in
// the function the row belongs to), and `inlined_function` names (mangled) the function inlined at the first.
struct line_table_row {
  std::uint64_t offset = 0;  // bytes from the start of the function (its .text.<name> section)
  source_position position;
  std::vector<source_position> inlined_at;
  std::string inlined_function;
};

// The SASS-to-source line tables of one cubin, from its .debug_line section (kernels built with -lineinfo
// or -G; nvcc keeps the PTX-to-SASS table apart in .nv_debug_line_sass). The table's addresses are
// relocated against each function's section symbol (R_CUDA_64 in .rela.debug_line): the rows are keyed by
// that section's index.
struct cubin_line_tables {
  bool present = false;  // false: the cubin has no .debug_line (built without -lineinfo)
  std::map<std::size_t, std::vector<line_table_row>> by_section;  // rows sorted by offset
  std::vector<std::string> files;                                 // every source file the tables name
  std::vector<std::string> toolkit_include_dirs;                  // toolkit_include_dirs(files)
};

// A malformed line table or relocation is an input_error naming the cubin and the offset.
[[nodiscard]] cubin_line_tables read_cubin_line_tables(const binary_view& cubin);

// The row that covers `offset`, or nullptr before the first row.
[[nodiscard]] const line_table_row* line_at(const std::vector<line_table_row>& rows, std::uint64_t offset);

}  // namespace counterguard
