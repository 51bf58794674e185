// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/binary_resources.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "counterguard/core/error.hpp"
#include "counterguard/core/symbol_names.hpp"
#include "counterguard/statics/cubin_resources.hpp"
#include "counterguard/statics/elf_file.hpp"
#include "counterguard/statics/fatbin_container.hpp"
#include "detail/mapped_file.hpp"

namespace counterguard {
namespace {

bool has_cubin(const std::vector<fatbin_entry>& entries) {
  return std::any_of(entries.begin(), entries.end(),
                     [](const fatbin_entry& e) { return e.kind == fatbin_entry_kind::cubin; });
}

// The fat binaries of a host ELF file: the loaded code (.nv_fatbin), or the relocatable copies kept for a
// later device link (__nv_relfatbin) when that is all there is. Reading both would count kernels twice.
std::vector<fatbin_entry> host_fatbins(const elf_file& host, binary_resources& out) {
  std::vector<fatbin_entry> entries;
  for (const char* name : {".nv_fatbin", "__nv_relfatbin"}) {
    const elf_section* section = host.find_section(name);
    if (section == nullptr || section->type == elf_file::section_type_no_bits)
      continue;
    std::vector<fatbin_entry> found = read_fatbin_containers(host.section_bytes(*section));
    if (entries.empty() || (!has_cubin(entries) && has_cubin(found))) {
      entries = std::move(found);
      out.device_code_section = name;
    }
    if (has_cubin(entries))
      break;
  }
  if (out.device_code_section.empty()) {
    throw input_error(source_location{out.path}, "",
                      "no CUDA device code: the file has no .nv_fatbin or __nv_relfatbin section",
                      "name a program or library linked with nvcc-compiled kernels, a .cubin or a .fatbin");
  }
  return entries;
}

// The names PTX text declares with `.entry NAME(`.
std::vector<std::string> ptx_entry_names(const binary_view& ptx) {
  const std::string_view text(reinterpret_cast<const char*>(ptx.data()), ptx.size());
  std::vector<std::string> names;
  constexpr std::string_view directive = ".entry";
  for (std::size_t at = text.find(directive); at != std::string_view::npos;
       at = text.find(directive, at + 1)) {
    std::size_t begin = at + directive.size();
    if (begin >= text.size() || (text[begin] != ' ' && text[begin] != '\t'))
      continue;
    while (begin < text.size() && (text[begin] == ' ' || text[begin] == '\t'))
      ++begin;
    std::size_t end = begin;
    while (end < text.size() && text[end] != '(' && text[end] != ' ' && text[end] != '\t' &&
           text[end] != '\n')
      ++end;
    if (end > begin)
      names.emplace_back(text.substr(begin, end - begin));
  }
  return names;
}

}  // namespace

std::vector<ptx_only_kernel> read_ptx_only_kernels(const std::string& path) {
  const detail::mapped_file file(path);
  const binary_view bytes(file.data(), file.size(), binary_origin{path, "", 0});
  std::vector<fatbin_entry> entries;
  if (starts_with_fatbin_magic(bytes)) {
    entries = read_fatbin_containers(bytes);
  } else if (elf_file::looks_like_elf(bytes)) {
    const elf_file elf(bytes);
    if (elf.machine() == elf_file::machine_cuda)
      return {};
    binary_resources ignored;
    ignored.path = path;
    entries = host_fatbins(elf, ignored);
  } else {
    return {};
  }
  std::vector<std::string> compiled;
  std::vector<std::uint8_t> storage;
  for (const auto& entry : entries) {
    if (entry.kind != fatbin_entry_kind::cubin)
      continue;
    for (const auto& kernel : read_cubin_resources(entry.payload(storage), entry.architecture_suffix(), path))
      compiled.push_back(kernel.mangled);
  }
  std::vector<ptx_only_kernel> ptx_only;
  for (const auto& entry : entries) {
    if (entry.kind != fatbin_entry_kind::ptx)
      continue;
    for (const auto& mangled : ptx_entry_names(entry.payload(storage))) {
      if (std::find(compiled.begin(), compiled.end(), mangled) != compiled.end())
        continue;
      ptx_only_kernel kernel{strip_signature(demangle(mangled)), entry.architecture};
      if (std::none_of(ptx_only.begin(), ptx_only.end(), [&](const ptx_only_kernel& k) {
            return k.function == kernel.function && k.architecture == kernel.architecture;
          })) {
        ptx_only.push_back(std::move(kernel));
      }
    }
  }
  return ptx_only;
}

binary_resources read_binary_resources(const std::string& path) {
  binary_resources out;
  out.path = path;
  const detail::mapped_file file(path);
  const binary_view bytes(file.data(), file.size(), binary_origin{path, "", 0});
  if (file.size() == 0)
    throw input_error(source_location{path}, "", "the file is empty",
                      "name a compiled CUDA program or library");

  std::vector<fatbin_entry> entries;
  if (starts_with_fatbin_magic(bytes)) {
    out.device_code_section = "fat binary file";
    entries = read_fatbin_containers(bytes);
  } else if (elf_file::looks_like_elf(bytes)) {
    const elf_file elf(bytes);
    if (elf.machine() == elf_file::machine_cuda) {
      out.device_code_section = "cubin file";
      out.cubins = 1;
      out.kernels = read_cubin_resources(bytes, "", path);
      return out;
    }
    entries = host_fatbins(elf, out);
  } else {
    throw input_error(source_location{path}, "", "not an ELF file or a fat binary",
                      "name an executable, a shared library, a .cubin or a .fatbin built by nvcc");
  }

  std::vector<std::string> compiled;
  std::vector<std::uint8_t> storage;  // one decompressed cubin at a time
  for (const auto& entry : entries) {
    if (entry.kind != fatbin_entry_kind::cubin)
      continue;
    const std::string label = fmt::format("{} [cubin {}]", path, out.cubins++);
    for (auto& kernel : read_cubin_resources(entry.payload(storage), entry.architecture_suffix(), label))
      out.kernels.push_back(std::move(kernel));
    compiled.push_back(std::to_string(entry.architecture) + entry.architecture_suffix());
  }
  for (const auto& entry : entries) {
    const std::string id = std::to_string(entry.architecture) + entry.architecture_suffix();
    const bool source = entry.kind == fatbin_entry_kind::ptx || entry.kind == fatbin_entry_kind::lto_ir;
    if (source && std::find(compiled.begin(), compiled.end(), id) == compiled.end() &&
        std::find(out.uncompiled_architectures.begin(), out.uncompiled_architectures.end(),
                  entry.architecture_name()) == out.uncompiled_architectures.end()) {
      out.uncompiled_architectures.push_back(entry.architecture_name());
    }
  }
  if (out.cubins == 0) {
    std::string present;
    for (const auto& name : out.uncompiled_architectures)
      present += (present.empty() ? "" : ", ") + name;
    throw input_error(
        source_location{path}, out.device_code_section,
        "holds device code only as PTX or LTO IR (" + (present.empty() ? "nothing" : present) +
            "), which the driver compiles when the program loads: there is no cubin to read",
        "build with a real architecture too, e.g. -arch=sm_90 or -gencode arch=compute_90,code=sm_90");
  }
  return out;
}

std::vector<kernel_resources> read_binary_kernel_resources(const std::string& path) {
  return read_binary_resources(path).kernels;
}

}  // namespace counterguard
