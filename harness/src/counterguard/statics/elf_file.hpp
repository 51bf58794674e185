// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "counterguard/statics/binary_view.hpp"

namespace counterguard {

struct elf_section {
  std::size_t index = 0;
  std::string name;
  std::uint32_t type = 0;
  std::uint64_t flags = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;
  std::uint32_t info = 0;
};

struct elf_symbol {
  std::size_t index = 0;
  std::string name;
  std::uint64_t value = 0;
  std::uint64_t size = 0;
  std::uint8_t type = 0;   // STT_*
  std::uint8_t other = 0;  // st_other
  std::uint16_t section = 0;
};

// A 64-bit little-endian ELF file held in memory: a host executable or shared library, or a cubin
// (e_machine EM_CUDA). Reads the header, the section table and the symbol table; nothing else.
class elf_file {
 public:
  static constexpr std::uint32_t section_type_symbol_table = 2;  // SHT_SYMTAB
  static constexpr std::uint32_t section_type_no_bits = 8;       // SHT_NOBITS
  static constexpr std::uint16_t machine_cuda = 190;             // EM_CUDA
  static constexpr std::uint16_t type_executable = 2;            // ET_EXEC
  static constexpr std::uint8_t symbol_type_function = 2;        // STT_FUNC

  // Throws input_error (naming the origin and offset) when the bytes are not a well-formed ELF64 LE file.
  explicit elf_file(binary_view bytes);

  [[nodiscard]] static bool looks_like_elf(const binary_view& bytes);

  [[nodiscard]] std::uint16_t type() const { return m_type; }
  [[nodiscard]] std::uint16_t machine() const { return m_machine; }
  [[nodiscard]] std::uint32_t flags() const { return m_flags; }
  [[nodiscard]] std::uint8_t abi_version() const { return m_abi_version; }
  [[nodiscard]] const std::vector<elf_section>& sections() const { return m_sections; }
  [[nodiscard]] const elf_section* find_section(std::string_view name) const;
  // The section's bytes (empty for SHT_NOBITS), checked against the file size.
  [[nodiscard]] binary_view section_bytes(const elf_section& section) const;
  // Every symbol of the first SHT_SYMTAB section; empty when there is none.
  [[nodiscard]] std::vector<elf_symbol> symbols() const;
  [[nodiscard]] const binary_view& bytes() const { return m_bytes; }

 private:
  binary_view m_bytes;
  std::uint16_t m_type = 0;
  std::uint16_t m_machine = 0;
  std::uint32_t m_flags = 0;
  std::uint8_t m_abi_version = 0;
  std::vector<elf_section> m_sections;
};

}  // namespace counterguard
