// SPDX-License-Identifier: Apache-2.0
#pragma once
// Spill bytes of a kernel from its machine code, with no disassembler.
//
// ptxas 13.0 marks every register-spill instruction in the kernel's .nv.info section: an EIATTR_ANNOTATIONS
// record holds (u32 kind, u32 byte offset into the .text section) pairs, kind 1 at each spill. The
// instruction there is a local store (STL, spill store) or local load (LDL, spill load). On sm_70 and later
// an instruction is 16 bytes: bits 0-11 hold the opcode (STL 0x387, LDL 0x983) and bits 73-75 the access
// size (0, 1: 8-bit; 2, 3: 16-bit; 4: 32-bit; 5: 64-bit; 6: 128-bit; seen on local arrays of char, short,
// float, double and float4). Summing those sizes reproduced the ptxas report's spill stores and loads
// exactly for sm_75 to sm_121 (nvcc 13.0; see docs/cli.md).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "counterguard/statics/binary_view.hpp"

namespace counterguard::detail {

struct spill_bytes {
  std::size_t stores = 0;
  std::size_t loads = 0;
};

// A function's code: [begin, end) of its .text section minus the ranges of other functions placed inside
// it (a non-inlined callee's code follows its caller's in the same section; ptxas reports its spills under
// the callee).
struct code_range {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> excluded;
  [[nodiscard]] bool contains(std::uint64_t offset) const;
};

// Whether the architecture uses the 16-byte instruction encoding decoded here (sm_70 and later).
[[nodiscard]] bool decodes_local_memory_instructions(int sm);

// The spill bytes the annotated instructions in `range` store and load; nullopt when an annotated
// instruction is not a local load or store this decoder knows (a format it cannot vouch for).
[[nodiscard]] std::optional<spill_bytes> sum_annotated_spills(
    const binary_view& text, const code_range& range, const std::vector<std::uint64_t>& spill_offsets);

// Whether any local load or store lies in `range` (a function with none cannot have spilled).
[[nodiscard]] bool has_local_memory_instructions(const binary_view& text, const code_range& range);

}  // namespace counterguard::detail
