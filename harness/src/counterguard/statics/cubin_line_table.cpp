// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/cubin_line_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "counterguard/statics/elf_file.hpp"
#include "counterguard/statics/toolkit_sources.hpp"

// The line programs of .debug_line are read here rather than with a DWARF library because of how nvcc
// (ptxas) encodes inlining, which such libraries get wrong for cubins holding several functions:
//
// - Each function has a sequence of its own (DW_LNE_set_address, relocated by an R_CUDA_64 entry of
//   .rela.debug_line against the function's section symbol, ... DW_LNE_end_sequence); every sequence starts
//   at address 0, so rows can only be told apart by their relocation.
// - Inlined code is marked by the vendor opcode DW_LNE_NVIDIA_inlined_call (extended opcode 0x90) with two
//   ULEB128 operands: the call site, as the 1-based index of an earlier row of the same sequence (0: not
//   inlined), and the inlined function's mangled name, as an offset into .debug_str (added to the base set
//   by DW_LNE_NVIDIA_set_function_name, 0x91). Like the file register, the call site stays set for the
//   rows that follow until the next 0x90 (`00 00` goes back to the function's own code).
// - A call site row may itself be inlined, so the rows form the chain: __reduce_add_sync (crt/sm_80_rt.hpp)
//   inlined in cooperative_groups' reduce.h, ..., inlined at the user's `cg::reduce(...)` line. Call site
//   rows usually share the address of the inlined rows that follow them (a "view" of the same instruction).
//
// elfutils' libdw reads the extension (dwarf_linecontext) as an index into all rows of the unit after they
// are sorted by address, which holds only for a unit with one sequence; CUDA 13's nvcc emits one unit per
// cubin with one sequence per function. DWARF versions 2 to 4 are read (nvcc writes 2).
namespace counterguard {
namespace {

constexpr std::uint32_t section_type_rela = 4;   // SHT_RELA
constexpr std::uint32_t relocation_cuda_64 = 2;  // R_CUDA_64: a 64-bit absolute address
constexpr std::size_t rela_entry_size = 24;

constexpr std::uint8_t lne_end_sequence = 1;
constexpr std::uint8_t lne_set_address = 2;
constexpr std::uint8_t lne_define_file = 3;
constexpr std::uint8_t lne_nvidia_inlined_call = 0x90;
constexpr std::uint8_t lne_nvidia_set_function_name = 0x91;

constexpr std::uint8_t lns_copy = 1;
constexpr std::uint8_t lns_advance_pc = 2;
constexpr std::uint8_t lns_advance_line = 3;
constexpr std::uint8_t lns_set_file = 4;
constexpr std::uint8_t lns_set_column = 5;
constexpr std::uint8_t lns_const_add_pc = 8;
constexpr std::uint8_t lns_fixed_advance_pc = 9;

// Where a relocated address points: the section of the relocation's symbol and the offset in it.
struct relocated_address {
  std::size_t section = 0;
  std::uint64_t offset = 0;
};

// The R_CUDA_64 relocations of .debug_line, by the offset they patch.
std::unordered_map<std::uint64_t, relocated_address> line_table_relocations(const elf_file& elf,
                                                                            const elf_section& debug_line) {
  std::unordered_map<std::uint64_t, relocated_address> out;
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
      out[where] = {symbol.section, symbol.value + static_cast<std::uint64_t>(addend)};
    }
  }
  return out;
}

// A bounds-checked cursor over one line table; errors name the cubin and the offset.
class line_cursor {
 public:
  line_cursor(const binary_view& bytes, std::uint64_t at) : m_bytes(bytes), m_at(at) {}

  [[nodiscard]] std::uint64_t at() const { return m_at; }
  void seek(std::uint64_t at) { m_at = at; }
  std::uint8_t u8() { return m_bytes.u8(m_at++, ".debug_line byte"); }
  std::uint16_t u16() {
    const std::uint16_t v = m_bytes.u16(m_at, ".debug_line value");
    m_at += 2;
    return v;
  }
  std::uint32_t u32() {
    const std::uint32_t v = m_bytes.u32(m_at, ".debug_line value");
    m_at += 4;
    return v;
  }
  std::uint64_t u64() {
    const std::uint64_t v = m_bytes.u64(m_at, ".debug_line value");
    m_at += 8;
    return v;
  }
  std::uint64_t uleb() {
    std::uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
      const std::uint8_t byte = u8();
      if (shift < 64)
        value |= static_cast<std::uint64_t>(byte & 0x7fU) << shift;
      if ((byte & 0x80U) == 0)
        return value;
    }
  }
  std::int64_t sleb() {
    std::int64_t value = 0;
    unsigned shift = 0;
    std::uint8_t byte = 0;
    do {
      byte = u8();
      if (shift < 64)
        value |= static_cast<std::int64_t>(static_cast<std::uint64_t>(byte & 0x7fU) << shift);
      shift += 7;
    } while ((byte & 0x80U) != 0);
    if (shift < 64 && (byte & 0x40U) != 0)
      value |= -(static_cast<std::int64_t>(1) << shift);
    return value;
  }
  std::string string() {
    std::string text = m_bytes.c_string(m_at, ".debug_line string");
    m_at += text.size() + 1;
    return text;
  }
  [[noreturn]] void fail(const std::string& problem) const { m_bytes.fail(m_at, problem); }

 private:
  const binary_view& m_bytes;
  std::uint64_t m_at;
};

// The state registers of a line program that matter here (DWARF 6.2.2), and what NVIDIA adds.
struct line_state {
  std::optional<relocated_address> address;  // none before DW_LNE_set_address: rows are not kept
  std::uint64_t file = 1;
  std::int64_t line = 1;
  std::uint64_t column = 0;
  std::uint64_t call_site = 0;  // 1-based row of this sequence the code is inlined at; 0: not inlined
  std::uint64_t function_name = 0;
};

// A row as emitted, in program order within its sequence.
struct emitted_row {
  std::size_t section = 0;
  line_table_row row;
};

struct unit_reader {
  const binary_view& table;
  const std::unordered_map<std::uint64_t, relocated_address>& relocations;
  const binary_view* strings;         // .debug_str, or null
  std::size_t only_function_section;  // the function of a table without relocations (0: several or none)
  cubin_line_tables& out;

  std::string function_name(std::uint64_t offset) const {
    if (strings == nullptr || offset >= strings->size())
      return "";
    return strings->c_string(offset, ".debug_str name of an inlined function");
  }

  // Reads the unit starting at `start`; returns where the next one starts.
  std::uint64_t read(std::uint64_t start) {
    line_cursor in(table, start);
    std::uint64_t length = in.u32();
    bool dwarf64 = false;
    if (length == 0xffffffffU) {
      length = in.u64();
      dwarf64 = true;
    }
    const std::uint64_t end = in.at() + length;
    if (end > table.size() || end < in.at())
      in.fail(fmt::format("a line table of {} bytes extends past the end of .debug_line", length));
    const std::uint16_t version = in.u16();
    if (version < 2 || version > 4)
      in.fail(fmt::format("line table version {} (this reader knows 2 to 4; nvcc writes 2)", version));
    const std::uint64_t header_length = dwarf64 ? in.u64() : in.u32();
    const std::uint64_t program = in.at() + header_length;
    const std::uint8_t minimum_instruction_length = in.u8();
    if (version >= 4)
      static_cast<void>(in.u8());  // maximum_operations_per_instruction: 1 for every GPU
    static_cast<void>(in.u8());    // default_is_stmt
    const auto line_base = static_cast<std::int8_t>(in.u8());
    const std::uint8_t line_range = in.u8();
    const std::uint8_t opcode_base = in.u8();
    if (line_range == 0 || opcode_base == 0)
      in.fail("a line table header with line_range or opcode_base 0");
    std::vector<std::uint8_t> operand_counts(opcode_base, 0);
    for (std::uint8_t opcode = 1; opcode < opcode_base; ++opcode)
      operand_counts[opcode] = in.u8();

    std::vector<std::string> directories{""};  // index 0: the compilation directory, not recorded here
    for (std::string directory = in.string(); !directory.empty(); directory = in.string())
      directories.push_back(std::move(directory));
    std::vector<std::string> files{""};  // file numbers start at 1
    const auto read_file_entry = [&](std::string name) {
      const std::uint64_t directory = in.uleb();
      static_cast<void>(in.uleb());  // modification time
      static_cast<void>(in.uleb());  // length
      if (directory >= directories.size())
        in.fail(
            fmt::format("file '{}' names include directory {} of {}", name, directory, directories.size()));
      std::string path = (!name.empty() && name.front() == '/') || directories[directory].empty()
                             ? std::move(name)
                             : directories[directory] + "/" + name;
      out.files.push_back(path);
      files.push_back(std::move(path));
    };
    for (std::string name = in.string(); !name.empty(); name = in.string())
      read_file_entry(std::move(name));
    if (in.at() > program)
      in.fail("a line table header is longer than its header_length says");
    in.seek(program);

    line_state state;
    std::uint64_t function_name_base = 0;
    std::vector<emitted_row> sequence;
    const auto emit = [&] {
      if (!state.address)
        return;
      if (state.file == 0 || state.file >= files.size())
        in.fail(fmt::format("a line table row names file {} of {}", state.file, files.size() - 1));
      emitted_row row;
      row.section = state.address->section;
      row.row.offset = state.address->offset;
      row.row.position = {files[state.file], static_cast<int>(state.line), static_cast<int>(state.column)};
      if (state.call_site != 0) {
        if (state.call_site > sequence.size())
          in.fail(fmt::format("an inlined call site names row {} of a sequence of {} rows so far",
                              state.call_site, sequence.size()));
        const line_table_row& call = sequence[state.call_site - 1].row;
        row.row.inlined_at.push_back(call.position);
        row.row.inlined_at.insert(row.row.inlined_at.end(), call.inlined_at.begin(), call.inlined_at.end());
        row.row.inlined_function = function_name(function_name_base + state.function_name);
      }
      sequence.push_back(std::move(row));
    };
    const auto advance = [&](std::uint64_t operation_advance) {
      if (state.address)
        state.address->offset += operation_advance * minimum_instruction_length;
    };
    const auto end_sequence = [&] {
      for (auto& row : sequence) {
        const std::size_t section = row.section != 0 ? row.section : only_function_section;
        out.by_section[section].push_back(std::move(row.row));
      }
      sequence.clear();
      state = line_state{};
    };

    while (in.at() < end) {
      const std::uint8_t opcode = in.u8();
      if (opcode >= opcode_base) {  // special opcode: advance address and line, emit a row
        const unsigned adjusted = opcode - opcode_base;
        advance(adjusted / line_range);
        state.line += line_base + static_cast<std::int64_t>(adjusted % line_range);
        emit();
        continue;
      }
      if (opcode == 0) {  // extended opcode
        const std::uint64_t size = in.uleb();
        const std::uint64_t next = in.at() + size;
        if (size == 0 || next > end)
          in.fail("an extended line table opcode runs past its table");
        const std::uint8_t extended = in.u8();
        if (extended == lne_end_sequence) {
          end_sequence();
        } else if (extended == lne_set_address) {
          const std::uint64_t operand_at = in.at();
          const std::uint64_t value = size == 9 ? in.u64() : in.u32();
          const auto relocation = relocations.find(operand_at);
          state.address = relocation != relocations.end() ? relocation->second : relocated_address{0, value};
        } else if (extended == lne_define_file) {
          read_file_entry(in.string());
        } else if (extended == lne_nvidia_inlined_call) {
          state.call_site = in.uleb();
          state.function_name = in.uleb();
        } else if (extended == lne_nvidia_set_function_name) {
          function_name_base = in.uleb();
        }
        in.seek(next);  // also skips what this reader does not need (DW_LNE_set_discriminator, ...)
        continue;
      }
      switch (opcode) {
        case lns_copy:
          emit();
          break;
        case lns_advance_pc:
          advance(in.uleb());
          break;
        case lns_advance_line:
          state.line += in.sleb();
          break;
        case lns_set_file:
          state.file = in.uleb();
          break;
        case lns_set_column:
          state.column = in.uleb();
          break;
        case lns_const_add_pc:
          advance((255U - opcode_base) / line_range);
          break;
        case lns_fixed_advance_pc:
          if (state.address)
            state.address->offset += in.u16();
          break;
        default:  // negate_stmt, basic_block, prologue_end, ...: operands skipped by the header's count
          for (std::uint8_t i = 0; i < operand_counts[opcode]; ++i)
            static_cast<void>(in.uleb());
          break;
      }
    }
    if (!sequence.empty())
      in.fail("a line table ends inside a sequence (no DW_LNE_end_sequence)");
    return end;
  }
};

}  // namespace

cubin_line_tables read_cubin_line_tables(const binary_view& cubin) {
  cubin_line_tables out;
  const elf_file elf(cubin);
  const elf_section* debug_line = elf.find_section(".debug_line");
  if (debug_line == nullptr || debug_line->type == elf_file::section_type_no_bits || debug_line->size == 0)
    return out;
  out.present = true;
  const binary_view table = elf.section_bytes(*debug_line);
  const auto relocations = line_table_relocations(elf, *debug_line);
  std::optional<binary_view> strings;
  if (const elf_section* debug_str = elf.find_section(".debug_str");
      debug_str != nullptr && debug_str->type != elf_file::section_type_no_bits)
    strings = elf.section_bytes(*debug_str);

  // Functions by section index, for a table whose addresses carry no relocation (one function only).
  std::vector<std::size_t> function_sections;
  for (const elf_symbol& symbol : elf.symbols()) {
    if (symbol.type == elf_file::symbol_type_function && symbol.section != 0)
      function_sections.push_back(symbol.section);
  }
  unit_reader reader{table, relocations, strings ? &*strings : nullptr,
                     function_sections.size() == 1 ? function_sections.front() : 0, out};
  for (std::uint64_t at = 0; at < table.size();)
    at = reader.read(at);

  for (auto& [section, rows] : out.by_section) {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const line_table_row& a, const line_table_row& b) { return a.offset < b.offset; });
  }
  std::sort(out.files.begin(), out.files.end());
  out.files.erase(std::unique(out.files.begin(), out.files.end()), out.files.end());
  out.toolkit_include_dirs = toolkit_include_dirs(out.files);
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
