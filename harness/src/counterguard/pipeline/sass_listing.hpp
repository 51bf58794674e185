// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// `counterguard sass --binary F --kernel K`: a kernel's SASS instructions with their CUDA source lines (from
// the -lineinfo line table) and a per-line summary of its memory instructions: the map that source-line
// blame joins per-instruction counters to (docs/blame.md). No GPU needed.
struct sass_options {
  std::string binary;
  std::string kernel;
  std::string architecture;
  bool lines_only = false;
  std::string json;  // "-": stdout only
};

// Returns the exit status.
int show_kernel_sass(const sass_options& options);

}  // namespace counterguard
