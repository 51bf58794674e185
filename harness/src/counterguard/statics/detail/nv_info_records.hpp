// SPDX-License-Identifier: Apache-2.0
#pragma once
// The attribute records of a cubin's .nv.info sections (module-wide) and .nv.info.<kernel> sections.
//
// Each record starts with 4 bytes: u8 format, u8 attribute, u16 value-or-size (little-endian).
//   format 1 (EIFMT_NVAL): no value;  2 (EIFMT_BVAL): the value is the u8 at byte 2;
//   3 (EIFMT_HVAL): the value is the u16;  4 (EIFMT_SVAL): the u16 is the size of the payload that follows.
// The attribute numbers below are the indices of the EIATTR_* names in the table nvlink 13.0 carries
// (nvlink, offset 0x1937d60: 16-byte entries, name pointer first); REGCOUNT, FRAME_SIZE and the stack sizes
// live in the module-wide section as SVAL pairs (u32 symbol index, u32 value).

#include <cstdint>
#include <vector>

#include "counterguard/statics/binary_view.hpp"

namespace counterguard::detail {

enum class eiattr : std::uint8_t {
  frame_size = 0x11,      // EIATTR_FRAME_SIZE: per-thread stack frame of a function (bytes)
  min_stack_size = 0x12,  // EIATTR_MIN_STACK_SIZE
  maxreg_count = 0x1b,    // EIATTR_MAXREG_COUNT: the register limit ptxas compiled under
  max_stack_size = 0x23,  // EIATTR_MAX_STACK_SIZE
  regcount = 0x2f,        // EIATTR_REGCOUNT: registers per thread
  num_barriers = 0x4c,    // EIATTR_NUM_BARRIERS
  annotations = 0x55,     // EIATTR_ANNOTATIONS: (u32 kind, u32 instruction offset) pairs; kind 1 = spill
};

enum class eiformat : std::uint8_t { none = 1, byte_value = 2, half_value = 3, sized = 4 };

struct nv_info_record {
  eiformat format = eiformat::none;
  std::uint8_t attribute = 0;
  std::uint16_t value = 0;           // byte_value and half_value
  std::uint64_t payload_offset = 0;  // sized: where the payload starts in the section
  std::uint16_t payload_size = 0;    // sized
};

// Every record of one .nv.info section, in order; a record that overruns the section or has an unknown
// format is an input_error naming the section and offset.
[[nodiscard]] std::vector<nv_info_record> read_nv_info_records(const binary_view& section);

}  // namespace counterguard::detail
