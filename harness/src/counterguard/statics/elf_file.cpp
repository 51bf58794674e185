// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/elf_file.hpp"

#include <fmt/format.h>

namespace counterguard {
namespace {

// ELF64 layout (System V gABI): the offsets of the header fields read here.
constexpr std::uint64_t header_size = 64;
constexpr std::uint64_t section_header_size = 64;
constexpr std::uint64_t symbol_size = 24;
constexpr std::uint16_t extended_section_index = 0xffff;  // SHN_XINDEX: the real value is in section 0

}  // namespace

bool elf_file::looks_like_elf(const binary_view& bytes) {
  return bytes.fits(0, 4) && bytes.data()[0] == 0x7f && bytes.data()[1] == 'E' && bytes.data()[2] == 'L' &&
         bytes.data()[3] == 'F';
}

elf_file::elf_file(binary_view bytes) : m_bytes(std::move(bytes)) {
  if (!looks_like_elf(m_bytes))
    m_bytes.fail(0, "not an ELF file (no \\x7fELF magic)");
  if (m_bytes.u8(4, "ELF class") != 2)
    m_bytes.fail(4, "only 64-bit ELF files are supported (EI_CLASS is not ELFCLASS64)");
  if (m_bytes.u8(5, "ELF data encoding") != 1)
    m_bytes.fail(5, "only little-endian ELF files are supported (EI_DATA is not ELFDATA2LSB)");
  m_abi_version = m_bytes.u8(8, "ELF ABI version");
  m_type = m_bytes.u16(16, "ELF type");
  m_machine = m_bytes.u16(18, "ELF machine");
  m_flags = m_bytes.u32(48, "ELF flags");
  (void)m_bytes.u8(header_size - 1, "ELF header");

  const std::uint64_t table = m_bytes.u64(40, "e_shoff");
  const std::uint16_t entry_size = m_bytes.u16(58, "e_shentsize");
  std::uint64_t count = m_bytes.u16(60, "e_shnum");
  std::uint32_t names_index = m_bytes.u16(62, "e_shstrndx");
  if (table == 0)
    return;  // no section table: nothing to find (a stripped-to-the-bone executable)
  if (entry_size != section_header_size)
    m_bytes.fail(58, fmt::format("section header size is {}, not {}", entry_size, section_header_size));
  if (count == 0)
    count = m_bytes.u64(table + 32, "section 0 sh_size (extended section count)");
  if (names_index == extended_section_index)
    names_index = m_bytes.u32(table + 40, "section 0 sh_link (extended string table index)");
  if (count > m_bytes.size() / section_header_size || !m_bytes.fits(table, count * section_header_size))
    m_bytes.fail(table,
                 fmt::format("the section table of {} entries extends past the end of the file", count));

  m_sections.resize(count);
  std::vector<std::uint32_t> name_offsets(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t at = table + i * section_header_size;
    elf_section& s = m_sections[i];
    s.index = i;
    name_offsets[i] = m_bytes.u32(at, "sh_name");
    s.type = m_bytes.u32(at + 4, "sh_type");
    s.flags = m_bytes.u64(at + 8, "sh_flags");
    s.offset = m_bytes.u64(at + 24, "sh_offset");
    s.size = m_bytes.u64(at + 32, "sh_size");
    s.link = m_bytes.u32(at + 40, "sh_link");
    s.info = m_bytes.u32(at + 44, "sh_info");
  }
  if (names_index >= count)
    m_bytes.fail(
        62, fmt::format("section name table index {} is not below the section count {}", names_index, count));
  const binary_view names = section_bytes(m_sections[names_index]);
  for (std::uint64_t i = 0; i < count; ++i)
    m_sections[i].name = names.c_string(name_offsets[i], "section name");
}

const elf_section* elf_file::find_section(std::string_view name) const {
  for (const auto& section : m_sections) {
    if (section.name == name)
      return &section;
  }
  return nullptr;
}

binary_view elf_file::section_bytes(const elf_section& section) const {
  const std::string name =
      section.name.empty() ? fmt::format("section {}", section.index) : "section " + section.name;
  if (section.type == section_type_no_bits)
    return m_bytes.sub(0, 0, name);
  return m_bytes.sub(section.offset, section.size, name);
}

std::vector<elf_symbol> elf_file::symbols() const {
  std::vector<elf_symbol> symbols;
  for (const auto& section : m_sections) {
    if (section.type != section_type_symbol_table)
      continue;
    const binary_view table = section_bytes(section);
    if (section.link >= m_sections.size())
      table.fail(0, fmt::format("symbol table links to string table {}, which does not exist", section.link));
    const binary_view names = section_bytes(m_sections[section.link]);
    const std::uint64_t count = table.size() / symbol_size;
    symbols.resize(count);
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t at = i * symbol_size;
      elf_symbol& symbol = symbols[i];
      symbol.index = i;
      symbol.name = names.c_string(table.u32(at, "st_name"), "symbol name");
      symbol.type = static_cast<std::uint8_t>(table.u8(at + 4, "st_info") & 0x0f);
      symbol.other = table.u8(at + 5, "st_other");
      symbol.section = table.u16(at + 6, "st_shndx");
      symbol.value = table.u64(at + 8, "st_value");
      symbol.size = table.u64(at + 16, "st_size");
    }
    break;
  }
  return symbols;
}

}  // namespace counterguard
