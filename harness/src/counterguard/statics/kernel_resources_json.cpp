// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/kernel_resources_json.hpp"

#include <nlohmann/json.hpp>

namespace counterguard {
namespace {

std::size_t size_field(const json_reader& reader, const nlohmann::json& item, const std::string& field,
                       const char* key) {
  return static_cast<std::size_t>(reader.integer(item, field, key, 0, INT64_MAX));
}

}  // namespace

nlohmann::json kernel_resources_to_json(const kernel_resources& k) {
  nlohmann::json item{{"mangled", k.mangled},
                      {"function", k.function},
                      {"architecture", k.architecture},
                      {"translation_unit", k.translation_unit},
                      {"flags", k.flags},
                      {"registers", k.registers},
                      {"barriers", k.barriers},
                      {"stack_frame_bytes", k.stack_frame_bytes},
                      {"spill_store_bytes", k.spill_store_bytes},
                      {"spill_load_bytes", k.spill_load_bytes},
                      {"spill_bytes_known", k.spill_bytes_known},
                      {"static_shared_bytes", k.static_shared_bytes},
                      {"constant_bytes", k.constant_bytes}};
  // Written only where they say something, so files of resources read from binaries stay as they were.
  if (!k.barriers_known)
    item["barriers_known"] = false;
  if (!k.module.empty())
    item["module"] = k.module;
  if (!k.unknown_because.empty())
    item["unknown_because"] = k.unknown_because;
  return item;
}

kernel_resources kernel_resources_from_json(const json_reader& reader, const nlohmann::json& item,
                                            const std::string& field) {
  reader.require_object(item, field);
  kernel_resources k;
  k.mangled = reader.string(item, field, "mangled");
  k.function = reader.string(item, field, "function");
  k.architecture = reader.string(item, field, "architecture");
  k.translation_unit = reader.string(item, field, "translation_unit");
  k.flags = reader.strings(item, field, "flags");
  k.registers = static_cast<int>(reader.integer(item, field, "registers", 0, 65536));
  k.barriers = static_cast<int>(reader.integer(item, field, "barriers", 0, 65536));
  k.stack_frame_bytes = size_field(reader, item, field, "stack_frame_bytes");
  k.spill_store_bytes = size_field(reader, item, field, "spill_store_bytes");
  k.spill_load_bytes = size_field(reader, item, field, "spill_load_bytes");
  k.spill_bytes_known = reader.boolean(item, field, "spill_bytes_known");
  k.static_shared_bytes = size_field(reader, item, field, "static_shared_bytes");
  k.constant_bytes = size_field(reader, item, field, "constant_bytes");
  if (reader.optional_member(item, field, "barriers_known") != nullptr)
    k.barriers_known = reader.boolean(item, field, "barriers_known");
  if (reader.optional_member(item, field, "module") != nullptr)
    k.module = reader.string(item, field, "module");
  if (reader.optional_member(item, field, "unknown_because") != nullptr)
    k.unknown_because = reader.string(item, field, "unknown_because");
  return k;
}

}  // namespace counterguard
