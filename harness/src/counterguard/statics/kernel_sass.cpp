// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/kernel_sass.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "counterguard/core/error.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/core/symbol_names.hpp"
#include "counterguard/statics/cubin_resources.hpp"
#include "counterguard/statics/elf_file.hpp"
#include "counterguard/statics/fatbin_container.hpp"
#include "counterguard/statics/sass_disassembler.hpp"
#include "detail/mapped_file.hpp"

namespace counterguard {
namespace {

constexpr std::uint64_t instruction_size = 16;  // sm_70 and later

struct cubin_ref {
  binary_view bytes;
  std::string suffix;  // "a", "f" or ""
  std::string label;
};

// Every cubin in the file: the file itself, or the entries of its fat binaries (.nv_fatbin first; then
// __nv_relfatbin, the relocatable copies, when .nv_fatbin holds no cubin), as binary_resources reads them.
std::vector<cubin_ref> cubins_of(const std::string& path, const binary_view& bytes,
                                 std::vector<std::vector<std::uint8_t>>& storage) {
  std::vector<fatbin_entry> entries;
  if (starts_with_fatbin_magic(bytes)) {
    entries = read_fatbin_containers(bytes);
  } else if (elf_file::looks_like_elf(bytes)) {
    const elf_file elf(bytes);
    if (elf.machine() == elf_file::machine_cuda)
      return {cubin_ref{bytes, "", path}};
    for (const char* name : {".nv_fatbin", "__nv_relfatbin"}) {
      const elf_section* section = elf.find_section(name);
      if (section == nullptr || section->type == elf_file::section_type_no_bits)
        continue;
      entries = read_fatbin_containers(elf.section_bytes(*section));
      if (std::any_of(entries.begin(), entries.end(),
                      [](const fatbin_entry& e) { return e.kind == fatbin_entry_kind::cubin; }))
        break;
    }
  } else {
    throw input_error(source_location{path}, "", "not an ELF file or a fat binary",
                      "name an executable, a shared library, a .cubin or a .fatbin built by nvcc");
  }
  std::vector<cubin_ref> out;
  for (const auto& entry : entries) {
    if (entry.kind != fatbin_entry_kind::cubin)
      continue;
    storage.emplace_back();
    const binary_view payload = entry.payload(storage.back());
    out.push_back({payload, entry.architecture_suffix(), fmt::format("{} [cubin {}]", path, out.size())});
  }
  if (out.empty()) {
    throw input_error(source_location{path}, "", "the file holds no cubin (no device code, or only PTX)",
                      "name a program, library, .cubin or .fatbin with code for a real architecture (sm_90)");
  }
  return out;
}

bool names_function(const std::string& wanted, const std::string& mangled) {
  if (wanted == mangled)
    return true;
  const std::string demangled = demangle(mangled);
  const std::string name = strip_signature(demangled);
  // An unqualified name ("smem_tile") matches the function of that name in any namespace.
  const bool unqualified =
      wanted.find("::") == std::string::npos && name.size() > wanted.size() + 2 &&
      name.compare(name.size() - wanted.size() - 2, std::string::npos, "::" + wanted) == 0;
  return wanted == demangled || wanted == name || unqualified;
}

std::vector<sass_instruction> instructions_of(const elf_section& text_section, const std::string& mangled,
                                              const binary_view& cubin, const kernel_sass_options& options,
                                              cubin_disassembly* disassembly) {
  std::vector<sass_instruction> out;
  if (options.lines_only) {
    for (std::uint64_t offset = 0; offset + instruction_size <= text_section.size; offset += instruction_size)
      out.push_back(sass_instruction{offset, "", "", memory_access::none, std::nullopt, {}, ""});
    return out;
  }
  if (disassembly->empty())
    *disassembly = disassemble_cubin(cubin);
  const auto found = disassembly->find(mangled);
  if (found == disassembly->end())
    cubin.fail(text_section.offset, "nvdisasm printed no code for " + mangled);
  for (const auto& instruction : found->second) {
    sass_instruction row;
    row.offset = instruction.offset;
    row.text = instruction.text;
    row.opcode = instruction_opcode(instruction.text);
    row.access = classify_opcode(row.opcode);
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace

const char* memory_access_name(memory_access access) {
  switch (access) {
    case memory_access::none:
      return "";
    case memory_access::shared_load:
      return "shared load";
    case memory_access::shared_store:
      return "shared store";
    case memory_access::shared_atomic:
      return "shared atomic";
    case memory_access::global_load:
      return "global load";
    case memory_access::global_store:
      return "global store";
    case memory_access::global_atomic:
      return "global atomic";
    case memory_access::local_load:
      return "local load";
    case memory_access::local_store:
      return "local store";
    case memory_access::generic_load:
      return "generic load";
    case memory_access::generic_store:
      return "generic store";
  }
  return "";
}

memory_access classify_opcode(const std::string& opcode) {
  static const std::map<std::string, memory_access> by_base{
      {"LDS", memory_access::shared_load},     {"LDSM", memory_access::shared_load},
      {"STS", memory_access::shared_store},    {"ATOMS", memory_access::shared_atomic},
      {"LDG", memory_access::global_load},     {"STG", memory_access::global_store},
      {"ATOMG", memory_access::global_atomic}, {"ATOM", memory_access::global_atomic},
      {"RED", memory_access::global_atomic},   {"REDG", memory_access::global_atomic},
      {"LDL", memory_access::local_load},      {"STL", memory_access::local_store},
      {"LD", memory_access::generic_load},     {"ST", memory_access::generic_store}};
  const auto found = by_base.find(opcode.substr(0, opcode.find('.')));
  return found == by_base.end() ? memory_access::none : found->second;
}

std::vector<kernel_sass> read_kernel_sass(const std::string& path, const std::string& kernel,
                                          const kernel_sass_options& options) {
  const detail::mapped_file file(path);
  const binary_view bytes(file.data(), file.size(), binary_origin{path, "", 0});
  if (file.size() == 0)
    throw input_error(source_location{path}, "", "the file is empty",
                      "name a compiled CUDA program or library");
  std::vector<std::vector<std::uint8_t>> storage;
  const std::vector<cubin_ref> cubins = cubins_of(path, bytes, storage);

  std::vector<kernel_sass> out;
  std::vector<std::string> known;
  std::vector<std::string> architectures;
  for (const cubin_ref& cubin : cubins) {
    const elf_file elf(cubin.bytes);
    const std::string architecture =
        "sm_" + std::to_string(cubin_architecture(elf.abi_version(), elf.flags())) + cubin.suffix;
    if (std::find(architectures.begin(), architectures.end(), architecture) == architectures.end())
      architectures.push_back(architecture);
    std::optional<cubin_line_tables> lines;
    cubin_disassembly disassembly;
    for (const elf_symbol& symbol : elf.symbols()) {
      if (symbol.type != elf_file::symbol_type_function || symbol.section == 0 ||
          symbol.section >= elf.sections().size())
        continue;
      const elf_section& text_section = elf.sections()[symbol.section];
      if (text_section.name != ".text." + symbol.name)
        continue;
      known.push_back(strip_signature(demangle(symbol.name)));
      if (!names_function(kernel, symbol.name) ||
          (!options.architecture.empty() && options.architecture != architecture))
        continue;
      if (options.lines_only && cubin_architecture(elf.abi_version(), elf.flags()) < 70) {
        throw input_error(source_location{path}, cubin.label,
                          architecture + " packs instructions with control words: --lines-only needs sm_70+",
                          "leave out --lines-only (nvdisasm decodes it)");
      }
      if (!lines)
        lines = read_cubin_line_tables(cubin.bytes);
      kernel_sass sass;
      sass.binary = path;
      sass.cubin = cubin.label;
      sass.mangled = symbol.name;
      sass.function = strip_signature(demangle(symbol.name));
      sass.architecture = architecture;
      sass.instructions = instructions_of(text_section, symbol.name, cubin.bytes, options, &disassembly);
      const auto rows = lines->by_section.find(symbol.section);
      sass.has_line_info = rows != lines->by_section.end() && !rows->second.empty();
      sass.toolkit_include_dirs = lines->toolkit_include_dirs;
      if (sass.has_line_info) {
        for (auto& instruction : sass.instructions) {
          if (const line_table_row* row = line_at(rows->second, instruction.offset)) {
            instruction.position = row->position;
            instruction.inlined_at = row->inlined_at;
            instruction.inlined_function = row->inlined_function;
          }
        }
      }
      out.push_back(std::move(sass));
    }
  }
  if (out.empty()) {
    std::sort(known.begin(), known.end());
    known.erase(std::unique(known.begin(), known.end()), known.end());
    const bool other_architecture =
        !options.architecture.empty() && std::any_of(known.begin(), known.end(), [&](const std::string& k) {
          return names_function(kernel, k);
        });
    if (other_architecture ||
        (!options.architecture.empty() && std::find(architectures.begin(), architectures.end(),
                                                    options.architecture) == architectures.end())) {
      throw input_error(source_location{path}, "--arch",
                        "no cubin for " + options.architecture + " holds '" + kernel + "'",
                        "the file has cubins for " + comma_list(architectures));
    }
    throw input_error(source_location{path}, "--kernel", "no function '" + kernel + "' in the file's cubins",
                      "closest: " + quoted_list(closest_names(kernel, known, 5)) +
                          " (a mangled name, or the demangled name with or without its parameters)");
  }
  return out;
}

std::vector<source_line_summary> summarize_by_line(const kernel_sass& sass) {
  std::map<std::optional<source_position>, source_line_summary> by_line;
  for (std::size_t i = 0; i < sass.instructions.size(); ++i) {
    const sass_instruction& instruction = sass.instructions[i];
    source_line_summary& summary = by_line[instruction.position];
    summary.position = instruction.position;
    ++summary.instructions;
    if (instruction.access != memory_access::none)
      summary.memory_instructions.push_back(i);
  }
  std::vector<source_line_summary> out;
  for (auto& [position, summary] : by_line) {
    if (position)
      out.push_back(std::move(summary));
  }
  if (const auto unplaced = by_line.find(std::nullopt); unplaced != by_line.end())
    out.push_back(std::move(unplaced->second));
  return out;
}

}  // namespace counterguard
