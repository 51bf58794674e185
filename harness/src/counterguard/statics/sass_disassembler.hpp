// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "counterguard/statics/binary_view.hpp"

namespace counterguard {

// One SASS instruction as the CUDA toolkit's disassembler prints it.
struct disassembled_instruction {
  std::uint64_t offset = 0;  // bytes from the start of the function
  std::string text;          // "@!P0 STS [R5], R2" (predicate, opcode with modifiers, operands)
};

// nvdisasm's instructions per function (mangled name), in address order.
using cubin_disassembly = std::map<std::string, std::vector<disassembled_instruction>>;

// The nvdisasm to run: $COUNTERGUARD_NVDISASM, else nvdisasm on PATH, else /usr/local/cuda/bin/nvdisasm.
// Empty when none exists.
[[nodiscard]] std::string find_nvdisasm();

// Runs `nvdisasm --print-code` on the cubin (written to a temporary file). Without nvdisasm, or when it
// fails, an environment_error says what to install or what nvdisasm said.
[[nodiscard]] cubin_disassembly disassemble_cubin(const binary_view& cubin);

// Reads nvdisasm's text: a function starts at its `.section .text.<name>` line; an instruction line is
// `/*<hex offset>*/ <instruction> ;` (with -hex, an encoding comment may follow). Directives, labels and
// comments are skipped.
[[nodiscard]] cubin_disassembly parse_nvdisasm_output(const std::string& text);

// "@!P0 LDG.E.128.CONSTANT R4, desc[UR4][R2.64]" -> "LDG.E.128.CONSTANT"; "" for text with no opcode.
[[nodiscard]] std::string instruction_opcode(const std::string& text);

}  // namespace counterguard
