// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "counterguard/statics/binary_view.hpp"

namespace counterguard {

// The fat binary container nvcc embeds in host binaries (section .nv_fatbin, and __nv_relfatbin for
// relocatable device code) and writes as a .fatbin file. Layout observed with nvcc/fatbinary 13.0, all
// integers little-endian:
//   container header (16 bytes): u32 magic 0xBA55ED50, u16 version (1), u16 header size (16),
//                                u64 size of the entries that follow
//   entry header (its own size, >= 64 bytes): u16 kind (1 PTX, 2 ELF cubin, 8 LTO IR), u16 version,
//     u32 header size, u64 payload size (padded), u32 compressed size (0: not compressed), u32 -,
//     u16 minor, u16 major (code version: 1.8 for cubins, 9.0 for PTX 9.0), u32 architecture (90),
//     u32 name offset, u32 name size, u64 flags, u64 -, u64 uncompressed size
//   flags: 0x2000 LZ4 (raw block), 0x8000 Zstandard (frame), 0x100000 'a' (sm_90a), 0x200000 'f' (sm_100f)
enum class fatbin_entry_kind { ptx, cubin, lto_ir, unknown };

struct fatbin_entry {
  fatbin_entry_kind kind = fatbin_entry_kind::unknown;
  std::uint16_t raw_kind = 0;
  int architecture = 0;  // 90 for sm_90 and compute_90
  std::uint64_t flags = 0;
  std::string compression;  // "", "lz4" or "zstd"
  std::uint64_t uncompressed_size = 0;
  binary_view stored;  // the payload as stored; points into the bytes the container was read from

  // "sm_90a" for a cubin, "compute_90" for PTX and LTO IR.
  [[nodiscard]] std::string architecture_name() const;
  // "a" (architecture-specific, sm_90a), "f" (family-specific, sm_100f) or "".
  [[nodiscard]] std::string architecture_suffix() const;
  // The payload, decompressed into `storage` when it is compressed (a corrupt stream is an input_error).
  [[nodiscard]] binary_view payload(std::vector<std::uint8_t>& storage) const;
};

inline constexpr std::uint32_t fatbin_magic = 0xBA55ED50;

[[nodiscard]] bool starts_with_fatbin_magic(const binary_view& bytes);

// Every entry of the containers laid end to end in `bytes` (zero padding between them is skipped); the
// entries point into `bytes`, which must outlive them. A malformed header is an input_error naming the
// file, the container, the entry and the offset.
[[nodiscard]] std::vector<fatbin_entry> read_fatbin_containers(const binary_view& bytes);

}  // namespace counterguard
