// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/statics/cubin_line_table.hpp"

namespace counterguard {

// The kinds of memory access that source-line blame attributes counters to (shared-memory wavefronts,
// global sectors, local-memory bytes), by SASS opcode.
enum class memory_access {
  none,
  shared_load,    // LDS, LDSM
  shared_store,   // STS
  shared_atomic,  // ATOMS
  global_load,    // LDG
  global_store,   // STG
  global_atomic,  // ATOMG, ATOM, RED, REDG
  local_load,     // LDL
  local_store,    // STL
  generic_load,   // LD (generic address: shared, global or local, decided at run time)
  generic_store,  // ST
};

// "shared store", "global load", ... ("" for none).
[[nodiscard]] const char* memory_access_name(memory_access access);
// By the opcode's base (the text before its first '.'): "STS.128" -> shared_store.
[[nodiscard]] memory_access classify_opcode(const std::string& opcode);

struct sass_instruction {
  std::uint64_t offset = 0;  // PC offset within the function: what CUPTI's per-PC records carry
  std::string text;          // "STS [R5], R2" (empty with lines_only)
  std::string opcode;        // "STS"
  memory_access access = memory_access::none;
  std::optional<source_position> position;  // none: no line table row covers it
  std::vector<source_position> inlined_at;  // call sites, innermost first
  std::string inlined_function;
};

// One function of one cubin, instruction by instruction.
struct kernel_sass {
  std::string binary;          // the path as given
  std::string cubin;           // "build/app [cubin 2]", or the path for a .cubin
  std::string mangled;         // "_ZN12counterguard7kernels9transpose9smem_tileEPKfPfii"
  std::string function;        // "counterguard::kernels::transpose::smem_tile"
  std::string architecture;    // "sm_90"
  bool has_line_info = false;  // the cubin has a line table with rows for this function
  // The CUDA toolkit's include directories among the cubin's source files (toolkit_sources.hpp): its inlined
  // code (atomicAdd, cooperative groups, ...) is not the user's.
  std::vector<std::string> toolkit_include_dirs;
  std::vector<sass_instruction> instructions;
};

struct kernel_sass_options {
  std::string architecture;  // "sm_90": only that cubin; empty: every cubin that holds the kernel
  bool lines_only = false;   // no nvdisasm: one instruction per 16 bytes, with its source line but no text
};

// The SASS of `kernel` (mangled name, demangled name, demangled name without its parameters, or that name
// without its namespaces) in a
// program, shared library, .cubin or .fatbin: one entry per cubin holding it. Unknown names are an
// input_error listing the closest function names; nvdisasm missing (unless lines_only) an environment_error.
[[nodiscard]] std::vector<kernel_sass> read_kernel_sass(const std::string& path, const std::string& kernel,
                                                        const kernel_sass_options& options = {});

// The instructions of one source line (the innermost position: an inlined function's own line).
struct source_line_summary {
  std::optional<source_position> position;  // none: instructions no line table row covers
  std::size_t instructions = 0;
  std::vector<std::size_t> memory_instructions;  // indices into kernel_sass::instructions
};

// One entry per source line, in order of file and line (instructions without a line last).
[[nodiscard]] std::vector<source_line_summary> summarize_by_line(const kernel_sass& sass);

}  // namespace counterguard
