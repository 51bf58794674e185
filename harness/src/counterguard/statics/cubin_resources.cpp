// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/cubin_resources.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "counterguard/core/symbol_names.hpp"
#include "counterguard/statics/elf_file.hpp"
#include "detail/nv_info_records.hpp"
#include "detail/spill_instructions.hpp"
#include "detail/toolkit_note.hpp"

namespace counterguard {
namespace {

using detail::eiattr;
using detail::eiformat;
using detail::nv_info_record;

constexpr std::uint8_t entry_function = 0x10;   // st_other of every __global__ function (0 on __device__)
constexpr std::uint64_t info_link_flag = 0x40;  // SHF_INFO_LINK: sh_info names the kernel's .text section
constexpr std::uint64_t reserved_shared_bytes = 1024;  // cudaDevAttrReservedSharedMemoryPerBlock (H200: 1024)
constexpr std::uint8_t spill_annotation = 1;

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

bool is(const nv_info_record& record, eiattr attribute) {
  return record.attribute == static_cast<std::uint8_t>(attribute);
}

// The module-wide per-function values: (symbol index -> value) for REGCOUNT and FRAME_SIZE.
struct function_attributes {
  std::map<std::uint32_t, std::uint32_t> registers;
  std::map<std::uint32_t, std::uint32_t> frame_bytes;
};

function_attributes read_module_attributes(const elf_file& cubin) {
  function_attributes attributes;
  for (const auto& section : cubin.sections()) {
    if (section.name != ".nv.info")
      continue;
    const binary_view bytes = cubin.section_bytes(section);
    for (const auto& record : detail::read_nv_info_records(bytes)) {
      const bool registers = is(record, eiattr::regcount);
      if ((!registers && !is(record, eiattr::frame_size)) || record.format != eiformat::sized)
        continue;
      if (record.payload_size < 8)
        bytes.fail(record.payload_offset, "EIATTR_REGCOUNT/FRAME_SIZE record is shorter than 8 bytes");
      const std::uint32_t symbol = bytes.u32(record.payload_offset, "symbol index");
      const std::uint32_t value = bytes.u32(record.payload_offset + 4, "attribute value");
      (registers ? attributes.registers : attributes.frame_bytes)[symbol] = value;
    }
  }
  return attributes;
}

// What a kernel's own sections say (.nv.info.<k>, .nv.shared.<k>, .nv.constant<N>.<k>).
struct kernel_sections {
  std::optional<int> barriers;
  std::optional<std::vector<std::uint64_t>> spill_offsets;  // set when an EIATTR_ANNOTATIONS record exists
  std::uint64_t shared_bytes = 0;
  std::uint64_t constant_bytes = 0;
};

// The kernel of a per-kernel section named by convention (".nv.shared.<kernel>", ".nv.constant2.<kernel>").
std::string kernel_of_section_name(const std::string& name) {
  for (const char* prefix : {".nv.info.", ".nv.shared."}) {
    if (starts_with(name, prefix))
      return name.substr(std::string(prefix).size());
  }
  const std::string constant = ".nv.constant";
  if (starts_with(name, constant)) {
    const std::size_t dot = name.find('.', constant.size());
    return dot == std::string::npos ? "" : name.substr(dot + 1);
  }
  return "";
}

// Each kernel's own sections, found once per cubin: by SHF_INFO_LINK to its .text section (what ptxas
// writes), else by name.
class kernel_section_index {
 public:
  explicit kernel_section_index(const elf_file& cubin) {
    for (const auto& section : cubin.sections()) {
      const std::string kernel = kernel_of_section_name(section.name);
      if (kernel.empty())
        continue;
      if ((section.flags & info_link_flag) != 0)
        m_by_text[section.info].push_back(&section);
      else
        m_by_name[kernel].push_back(&section);
    }
  }
  [[nodiscard]] std::vector<const elf_section*> of(const elf_section& text,
                                                   const std::string& mangled) const {
    std::vector<const elf_section*> sections;
    if (const auto linked = m_by_text.find(text.index); linked != m_by_text.end())
      sections = linked->second;
    if (const auto named = m_by_name.find(mangled); named != m_by_name.end())
      sections.insert(sections.end(), named->second.begin(), named->second.end());
    return sections;
  }

 private:
  std::unordered_map<std::size_t, std::vector<const elf_section*>> m_by_text;
  std::unordered_map<std::string, std::vector<const elf_section*>> m_by_name;
};

void read_kernel_info(const binary_view& bytes, kernel_sections& out) {
  for (const auto& record : detail::read_nv_info_records(bytes)) {
    if (is(record, eiattr::num_barriers) && record.format != eiformat::sized) {
      out.barriers = record.value;
    } else if (is(record, eiattr::annotations) && record.format == eiformat::sized) {
      if (!out.spill_offsets)
        out.spill_offsets.emplace();
      for (std::uint64_t at = 0; at + 8 <= record.payload_size; at += 8) {
        const std::uint32_t kind = bytes.u32(record.payload_offset + at, "annotation kind");
        const std::uint32_t offset = bytes.u32(record.payload_offset + at + 4, "annotation offset");
        if (kind == spill_annotation)
          out.spill_offsets->push_back(offset);
      }
    }
  }
}

kernel_sections read_kernel_sections(const elf_file& cubin, const std::vector<const elf_section*>& sections) {
  kernel_sections out;
  for (const elf_section* section : sections) {
    if (starts_with(section->name, ".nv.info.")) {
      read_kernel_info(cubin.section_bytes(*section), out);
    } else if (starts_with(section->name, ".nv.shared.")) {
      out.shared_bytes += section->size;
    } else {
      // ".nv.constant<N>.<kernel>": bank N; bank 0 holds the parameters and driver constants.
      const std::size_t digits = std::string(".nv.constant").size();
      const std::string bank = section->name.substr(digits, section->name.find('.', digits) - digits);
      if (!bank.empty() && bank != "0" && bank.find_first_not_of("0123456789") == std::string::npos)
        out.constant_bytes += section->size;
    }
  }
  return out;
}

bool reserves_shared_memory(const elf_file& cubin, const std::vector<elf_symbol>& symbols) {
  if (cubin.type() != elf_file::type_executable)
    return false;  // relocatable cubins (-rdc) get the reservation when nvlink links them
  for (const auto& symbol : symbols) {
    if (starts_with(symbol.name, ".nv.reservedSmem") || starts_with(symbol.name, "__nv_reservedSMEM"))
      return true;
  }
  return false;
}

// The kernel's code, without the code of other functions placed in its section (`functions`: the
// function symbols of that section).
detail::code_range code_of(const elf_symbol& kernel, const std::vector<const elf_symbol*>& functions) {
  detail::code_range range{kernel.value, kernel.value + kernel.size, {}};
  for (const elf_symbol* other : functions) {
    if (other->index != kernel.index && other->size != 0 && other->value >= range.begin &&
        other->value < range.end)
      range.excluded.emplace_back(other->value, other->value + other->size);
  }
  return range;
}

// Spill bytes, or nullopt when the cubin does not say (see cubin_resources.hpp).
std::optional<detail::spill_bytes> spills_of(const binary_view& text, const detail::code_range& range,
                                             const kernel_sections& own, std::uint32_t frame_bytes, int sm,
                                             const std::optional<detail::toolkit_note>& producer) {
  if (frame_bytes == 0)
    return detail::spill_bytes{};  // a spill needs a stack slot
  if (own.spill_offsets) {
    if (!detail::decodes_local_memory_instructions(sm))
      return std::nullopt;
    return detail::sum_annotated_spills(text, range, *own.spill_offsets);
  }
  // No annotations: ptxas 13.0 annotates every spill (so none means none); older cubins say nothing, but a
  // kernel without local loads and stores cannot have spilled.
  if (producer && producer->at_least(13, 0))
    return detail::spill_bytes{};
  if (detail::decodes_local_memory_instructions(sm) && !detail::has_local_memory_instructions(text, range))
    return detail::spill_bytes{};
  return std::nullopt;
}

}  // namespace

int cubin_architecture(std::uint8_t abi_version, std::uint32_t elf_flags) {
  // ELFABIVERSION_CUDA_V1 (7) keeps the SM number in EF_CUDA_SM (bits 0-7); version 8, which nvcc 13
  // writes for every architecture, in bits 8-15 (LLVM's EF_CUDA_SM_MASK / EF_CUDA_SM_OFFSET).
  return abi_version <= 7 ? static_cast<int>(elf_flags & 0xff) : static_cast<int>((elf_flags >> 8) & 0xff);
}

std::vector<kernel_resources> read_cubin_resources(const binary_view& bytes,
                                                   const std::string& architecture_suffix,
                                                   const std::string& translation_unit) {
  const elf_file cubin(bytes);
  if (cubin.machine() != elf_file::machine_cuda) {
    bytes.fail(18, fmt::format("not a CUDA cubin: e_machine is {} (a cubin has EM_CUDA, {})", cubin.machine(),
                               elf_file::machine_cuda));
  }
  const int sm = cubin_architecture(cubin.abi_version(), cubin.flags());
  const std::vector<elf_symbol> symbols = cubin.symbols();
  const function_attributes attributes = read_module_attributes(cubin);
  std::optional<detail::toolkit_note> producer;
  if (const elf_section* note = cubin.find_section(".note.nv.tkinfo"))
    producer = detail::read_toolkit_note(cubin.section_bytes(*note));
  const std::uint64_t reserved = reserves_shared_memory(cubin, symbols) ? reserved_shared_bytes : 0;
  const kernel_section_index own_sections(cubin);
  std::unordered_map<std::uint16_t, std::vector<const elf_symbol*>> functions_in_section;
  for (const auto& symbol : symbols) {
    if (symbol.type == elf_file::symbol_type_function)
      functions_in_section[symbol.section].push_back(&symbol);
  }

  std::vector<kernel_resources> kernels;
  for (const auto& symbol : symbols) {
    if (symbol.type != elf_file::symbol_type_function || (symbol.other & entry_function) == 0)
      continue;
    if (symbol.section == 0 || symbol.section >= cubin.sections().size()) {
      bytes.fail(
          0, fmt::format("kernel {} names section {}, which does not exist", symbol.name, symbol.section));
    }
    const elf_section& text = cubin.sections()[symbol.section];
    // REGCOUNT is what ptxas writes; cubins assembled from SASS (nvasm, in NVIDIA's libraries) keep the
    // register count in the top byte of the .text section's sh_info instead, and no FRAME_SIZE (no stack).
    const auto registers = attributes.registers.find(static_cast<std::uint32_t>(symbol.index));
    const auto frame = attributes.frame_bytes.find(static_cast<std::uint32_t>(symbol.index));
    const std::uint32_t legacy_registers = text.info >> 24;
    if (registers == attributes.registers.end() && legacy_registers == 0) {
      bytes.fail(0, fmt::format("kernel {} has no register count (no EIATTR_REGCOUNT in .nv.info and none in "
                                "its .text section's sh_info)",
                                symbol.name));
    }
    const std::uint32_t frame_bytes = frame == attributes.frame_bytes.end() ? 0 : frame->second;
    const kernel_sections own = read_kernel_sections(cubin, own_sections.of(text, symbol.name));

    kernel_resources k;
    k.mangled = symbol.name;
    k.function = strip_signature(demangle(symbol.name));
    k.architecture = fmt::format("sm_{}{}", sm, architecture_suffix);
    k.translation_unit = translation_unit;
    if (producer)
      k.flags = producer->code_generation_flags();
    k.registers =
        static_cast<int>(registers != attributes.registers.end() ? registers->second : legacy_registers);
    // Without EIATTR_NUM_BARRIERS, older cubins keep the count in the .text section's flags (nvlink 13.0
    // says it moves "barcount ... from section flags"); bits 20-24 is where, unverified with such a cubin.
    k.barriers = own.barriers ? *own.barriers : static_cast<int>((text.flags >> 20) & 0x1f);
    k.stack_frame_bytes = frame_bytes;
    k.static_shared_bytes = own.shared_bytes - std::min(own.shared_bytes, reserved);
    k.constant_bytes = own.constant_bytes;
    const std::optional<detail::spill_bytes> spills =
        spills_of(cubin.section_bytes(text), code_of(symbol, functions_in_section[symbol.section]), own,
                  frame_bytes, sm, producer);
    k.spill_bytes_known = spills.has_value();
    if (spills) {
      k.spill_store_bytes = spills->stores;
      k.spill_load_bytes = spills->loads;
    }
    kernels.push_back(std::move(k));
  }
  return kernels;
}

}  // namespace counterguard
