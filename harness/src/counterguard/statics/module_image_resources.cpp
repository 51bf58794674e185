// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/module_image_resources.hpp"

#include <fmt/format.h>

#include <cstring>

#include "counterguard/statics/binary_view.hpp"
#include "counterguard/statics/cubin_resources.hpp"
#include "counterguard/statics/elf_file.hpp"
#include "counterguard/statics/fatbin_container.hpp"

namespace counterguard {
namespace {

bool looks_like_ptx(const std::uint8_t* data, std::size_t size) {
  // PTX is text whose directives come first: ".version", ".target", or comments before them.
  std::size_t i = 0;
  while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
    ++i;
  return i < size && (data[i] == '.' || data[i] == '/');
}

// The cubin entry the driver picks for the device: its own architecture first (an architecture-specific
// "a" build of it too), else the newest older cubin of the same major version (binary compatibility).
const fatbin_entry* cubin_for(const std::vector<fatbin_entry>& entries, int device_architecture) {
  const fatbin_entry* best = nullptr;
  for (const auto& entry : entries) {
    if (entry.kind != fatbin_entry_kind::cubin || entry.architecture > device_architecture ||
        entry.architecture / 10 != device_architecture / 10) {
      continue;
    }
    if (best == nullptr || entry.architecture > best->architecture)
      best = &entry;
  }
  return best;
}

}  // namespace

const char* to_string(module_image_form form) {
  switch (form) {
    case module_image_form::cubin:
      return "cubin";
    case module_image_form::fat_binary:
      return "fat binary";
    case module_image_form::ptx:
      return "PTX";
    case module_image_form::unknown:
      break;
  }
  return "unknown";
}

module_image_kernels read_module_image_resources(const std::uint8_t* data, std::size_t size,
                                                 int device_architecture, const std::string& label) {
  module_image_kernels out;
  if (data == nullptr || size == 0) {
    out.note = "the driver handed over no image";
    return out;
  }
  const binary_view bytes(data, size, binary_origin{label, "", 0});
  if (elf_file::looks_like_elf(bytes)) {
    out.form = module_image_form::cubin;
    out.kernels = read_cubin_resources(bytes, "", label);
    return out;
  }
  if (starts_with_fatbin_magic(bytes)) {
    out.form = module_image_form::fat_binary;
    const std::vector<fatbin_entry> entries = read_fatbin_containers(bytes);
    const fatbin_entry* chosen = cubin_for(entries, device_architecture);
    if (chosen == nullptr) {
      out.note = fmt::format("no cubin for sm_{} in the fat binary: the driver compiled its PTX",
                             device_architecture);
      return out;
    }
    std::vector<std::uint8_t> storage;
    out.kernels = read_cubin_resources(chosen->payload(storage), chosen->architecture_suffix(), label);
    return out;
  }
  if (looks_like_ptx(data, size)) {
    out.form = module_image_form::ptx;
    out.note = "PTX, compiled by the driver at load into code it does not show";
    return out;
  }
  out.note = "neither a cubin, a fat binary nor PTX";
  return out;
}

std::optional<std::vector<std::uint8_t>> module_image_cubin(const std::uint8_t* data, std::size_t size,
                                                            int device_architecture,
                                                            const std::string& label) {
  if (data == nullptr || size == 0)
    return std::nullopt;
  const binary_view bytes(data, size, binary_origin{label, "", 0});
  if (elf_file::looks_like_elf(bytes))
    return std::vector<std::uint8_t>(data, data + size);
  if (!starts_with_fatbin_magic(bytes))
    return std::nullopt;
  const std::vector<fatbin_entry> entries = read_fatbin_containers(bytes);
  const fatbin_entry* chosen = cubin_for(entries, device_architecture);
  if (chosen == nullptr)
    return std::nullopt;
  std::vector<std::uint8_t> storage;
  const binary_view payload = chosen->payload(storage);
  return std::vector<std::uint8_t>(payload.data(), payload.data() + payload.size());
}

}  // namespace counterguard
