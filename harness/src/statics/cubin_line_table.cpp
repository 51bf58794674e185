#include "counterguard/statics/cubin_line_table.hpp"

#include <elfutils/libdw.h>
#include <fmt/format.h>
#include <libelf.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "counterguard/core/error.hpp"
#include "counterguard/statics/elf_file.hpp"

namespace counterguard {
namespace {

constexpr std::uint32_t section_type_rela = 4;   // SHT_RELA
constexpr std::uint32_t relocation_cuda_64 = 2;  // R_CUDA_64: a 64-bit absolute address
constexpr std::size_t rela_entry_size = 24;
// A relocated address carries the function's section index above this bit and the offset below it, so
// that the rows of every function can be told apart although each function's section starts at 0.
constexpr unsigned section_shift = 40;
constexpr std::uint64_t offset_mask = (std::uint64_t{1} << section_shift) - 1;

struct dwarf_closer {
  void operator()(Dwarf* dwarf) const { dwarf_end(dwarf); }
};
struct elf_closer {
  void operator()(Elf* elf) const { elf_end(elf); }
};

std::string dwarf_problem() {
  const char* message = dwarf_errmsg(-1);
  return message != nullptr ? message : "unknown libdw error";
}

// Writes, into `copy` (the cubin's bytes), each R_CUDA_64 relocation of .debug_line as section index and
// offset (see section_shift).
void relocate_line_table(const elf_file& elf, const elf_section& debug_line,
                         std::vector<std::uint8_t>& copy) {
  const std::vector<elf_symbol> symbols = elf.symbols();
  for (const elf_section& section : elf.sections()) {
    if (section.type != section_type_rela || section.info != debug_line.index)
      continue;
    const binary_view entries = elf.section_bytes(section);
    for (std::uint64_t at = 0; at + rela_entry_size <= entries.size(); at += rela_entry_size) {
      const std::uint64_t where = entries.u64(at, "relocation offset");
      const std::uint64_t info = entries.u64(at + 8, "relocation info");
      const auto addend = static_cast<std::int64_t>(entries.u64(at + 16, "relocation addend"));
      const auto type = static_cast<std::uint32_t>(info & 0xffffffffu);
      const std::uint64_t symbol_index = info >> 32;
      if (type != relocation_cuda_64)
        entries.fail(at, fmt::format("relocation type {} of .debug_line is not R_CUDA_64 (2)", type));
      if (symbol_index >= symbols.size() || where + 8 > debug_line.size)
        entries.fail(at, "a .debug_line relocation points outside its symbol table or section");
      const elf_symbol& symbol = symbols[symbol_index];
      const std::uint64_t offset = symbol.value + static_cast<std::uint64_t>(addend);
      const std::uint64_t value = (std::uint64_t{symbol.section} << section_shift) | (offset & offset_mask);
      std::memcpy(copy.data() + debug_line.offset + where, &value, sizeof value);  // little-endian host
    }
  }
}

source_position position_of(Dwarf_Line* line) {
  source_position p;
  const char* file = dwarf_linesrc(line, nullptr, nullptr);
  p.file = file != nullptr ? file : "";
  dwarf_lineno(line, &p.line);
  dwarf_linecol(line, &p.column);
  return p;
}

}  // namespace

cubin_line_tables read_cubin_line_tables(const binary_view& cubin) {
  cubin_line_tables out;
  const elf_file elf(cubin);
  const elf_section* debug_line = elf.find_section(".debug_line");
  if (debug_line == nullptr || debug_line->type == elf_file::section_type_no_bits || debug_line->size == 0)
    return out;
  out.present = true;
  (void)elf.section_bytes(*debug_line);  // bounds check before the copy is patched

  std::vector<std::uint8_t> copy(cubin.data(), cubin.data() + cubin.size());
  relocate_line_table(elf, *debug_line, copy);

  elf_version(EV_CURRENT);
  const std::unique_ptr<Elf, elf_closer> memory(
      elf_memory(reinterpret_cast<char*>(copy.data()), copy.size()));
  if (!memory)
    cubin.fail(0, fmt::format("libelf cannot read the cubin: {}", elf_errmsg(-1)));
  const std::unique_ptr<Dwarf, dwarf_closer> dwarf(dwarf_begin_elf(memory.get(), DWARF_C_READ, nullptr));
  if (!dwarf)
    cubin.fail(debug_line->offset, "libdw cannot read .debug_line: " + dwarf_problem());

  // Functions by section index, for a table whose addresses carry no relocation (one function only).
  std::vector<std::size_t> function_sections;
  for (const elf_symbol& symbol : elf.symbols()) {
    if (symbol.type == elf_file::symbol_type_function && symbol.section != 0)
      function_sections.push_back(symbol.section);
  }

  Dwarf_Off offset = 0;
  Dwarf_Off next = 0;
  for (;;) {
    Dwarf_CU* unit = nullptr;
    Dwarf_Files* files = nullptr;
    std::size_t file_count = 0;
    Dwarf_Lines* lines = nullptr;
    std::size_t line_count = 0;
    const int status =
        dwarf_next_lines(dwarf.get(), offset, &next, &unit, &files, &file_count, &lines, &line_count);
    if (status > 0)
      break;
    if (status < 0) {
      cubin.fail(debug_line->offset + offset,
                 fmt::format("libdw cannot read the line table at .debug_line offset {:#x}: {}", offset,
                             dwarf_problem()));
    }
    for (std::size_t i = 0; i < line_count; ++i) {
      Dwarf_Line* line = dwarf_onesrcline(lines, i);
      bool end_of_sequence = false;
      Dwarf_Addr address = 0;
      if (line == nullptr || dwarf_lineaddr(line, &address) != 0 ||
          dwarf_lineendsequence(line, &end_of_sequence) != 0) {
        cubin.fail(debug_line->offset + offset, "libdw cannot read a line table row: " + dwarf_problem());
      }
      if (end_of_sequence)
        continue;
      std::size_t section = address >> section_shift;
      if (section == 0 && function_sections.size() == 1)
        section = function_sections.front();
      line_table_row row;
      row.offset = address & offset_mask;
      row.position = position_of(line);
      for (Dwarf_Line* call = dwarf_linecontext(lines, line); call != nullptr;
           call = dwarf_linecontext(lines, call)) {
        row.inlined_at.push_back(position_of(call));
        if (row.inlined_at.size() > line_count)
          cubin.fail(debug_line->offset + offset, "the inlined-at chain of a line table row has a cycle");
      }
      if (!row.inlined_at.empty()) {
        const char* name = dwarf_linefunctionname(dwarf.get(), line);
        row.inlined_function = name != nullptr ? name : "";
      }
      out.by_section[section].push_back(std::move(row));
    }
    offset = next;
  }
  for (auto& [section, rows] : out.by_section) {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const line_table_row& a, const line_table_row& b) { return a.offset < b.offset; });
  }
  return out;
}

const line_table_row* line_at(const std::vector<line_table_row>& rows, std::uint64_t offset) {
  auto after =
      std::upper_bound(rows.begin(), rows.end(), offset,
                       [](std::uint64_t value, const line_table_row& row) { return value < row.offset; });
  if (after == rows.begin())
    return nullptr;
  return &*std::prev(after);
}

}  // namespace counterguard
