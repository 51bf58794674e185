// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/statics/binary_view.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// The resources of every kernel (__global__ function) in one cubin, read from the cubin alone: the same
// numbers the ptxas report gives at compile time, with no GPU, disassembler or cuobjdump.
//   registers      EIATTR_REGCOUNT (module .nv.info, keyed by the kernel's symbol index)
//   stack frame    EIATTR_FRAME_SIZE (likewise)
//   barriers       EIATTR_NUM_BARRIERS (.nv.info.<kernel>), else bits 20-24 of the .text section's flags
//   static shared  size of .nv.shared.<kernel>, less the 1 KiB reserved for the system at its start on
//                  sm_90 and later (a linked cubin with a .nv.reservedSmem* or __nv_reservedSMEM* symbol;
//                  cuobjdump's SHARED includes it: it differed by exactly 1024 for every such kernel)
//   constant       sizes of .nv.constant<N>.<kernel>, N > 0 (bank 0 holds the parameters and driver
//                  constants; module-wide __constant__ data in .nv.constant3 belongs to no one kernel)
//   spills         the annotated spill instructions (see src/statics/detail/spill_instructions.hpp);
//                  0 when the frame is empty or the kernel has no local loads or stores; unknown
//                  (spill_bytes_known false) when the cubin does not say
//   architecture   e_flags (bits 0-7 for ELF ABI version 7, bits 8-15 for version 8) + `suffix`
// `translation_unit` labels the rows; a malformed cubin is an input_error naming where.
[[nodiscard]] std::vector<kernel_resources> read_cubin_resources(const binary_view& cubin,
                                                                 const std::string& architecture_suffix,
                                                                 const std::string& translation_unit);

// The architecture number in a cubin's ELF header (90 for sm_90).
[[nodiscard]] int cubin_architecture(std::uint8_t abi_version, std::uint32_t elf_flags);

}  // namespace counterguard
