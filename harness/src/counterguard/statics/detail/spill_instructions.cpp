// SPDX-License-Identifier: Apache-2.0
#include "spill_instructions.hpp"

#include <algorithm>

namespace counterguard::detail {
namespace {

constexpr std::uint64_t instruction_size = 16;
constexpr std::uint64_t opcode_mask = 0xfff;
constexpr std::uint64_t opcode_store_local = 0x387;  // STL
constexpr std::uint64_t opcode_load_local = 0x983;   // LDL

struct local_access {
  bool is_store = false;
  std::size_t bytes = 0;
};

std::optional<local_access> decode(const binary_view& text, std::uint64_t offset) {
  const std::uint64_t low = text.u64(offset, "instruction");
  const std::uint64_t high = text.u64(offset + 8, "instruction");
  const std::uint64_t opcode = low & opcode_mask;
  if (opcode != opcode_store_local && opcode != opcode_load_local)
    return std::nullopt;
  static constexpr std::size_t sizes[8] = {1, 1, 2, 2, 4, 8, 16, 16};
  return local_access{opcode == opcode_store_local, sizes[(high >> 9) & 0x7]};  // bits 73-75
}

}  // namespace

bool code_range::contains(std::uint64_t offset) const {
  if (offset < begin || offset >= end)
    return false;
  return std::none_of(excluded.begin(), excluded.end(),
                      [&](const auto& r) { return offset >= r.first && offset < r.second; });
}

bool decodes_local_memory_instructions(int sm) {
  return sm >= 70;
}

std::optional<spill_bytes> sum_annotated_spills(const binary_view& text, const code_range& range,
                                                const std::vector<std::uint64_t>& spill_offsets) {
  spill_bytes total;
  for (const std::uint64_t offset : spill_offsets) {
    if (!range.contains(offset))
      continue;
    if (offset % instruction_size != 0)
      text.fail(offset, "a spill annotation points between instructions");
    const std::optional<local_access> access = decode(text, offset);
    if (!access)
      return std::nullopt;
    (access->is_store ? total.stores : total.loads) += access->bytes;
  }
  return total;
}

bool has_local_memory_instructions(const binary_view& text, const code_range& range) {
  const std::uint64_t end = std::min<std::uint64_t>(range.end, text.size());
  for (std::uint64_t offset = range.begin; offset + instruction_size <= end; offset += instruction_size) {
    if (range.contains(offset) && decode(text, offset))
      return true;
  }
  return false;
}

}  // namespace counterguard::detail
