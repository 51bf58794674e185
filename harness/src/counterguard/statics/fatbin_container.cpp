// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/fatbin_container.hpp"

#include <fmt/format.h>
#include <lz4.h>
#include <zstd.h>

#include <limits>

namespace counterguard {
namespace {

constexpr std::uint64_t container_header_size = 16;
constexpr std::uint64_t minimum_entry_header_size = 64;
constexpr std::uint64_t flag_lz4 = 0x2000;
constexpr std::uint64_t flag_zstd = 0x8000;
constexpr std::uint64_t flag_architecture_specific = 0x100000;  // sm_90a, sm_100a
constexpr std::uint64_t flag_family_specific = 0x200000;        // sm_100f

fatbin_entry_kind kind_of(std::uint16_t kind) {
  switch (kind) {
    case 1:
      return fatbin_entry_kind::ptx;
    case 2:
      return fatbin_entry_kind::cubin;
    case 8:
      return fatbin_entry_kind::lto_ir;
    default:
      return fatbin_entry_kind::unknown;
  }
}

const char* kind_name(fatbin_entry_kind kind) {
  switch (kind) {
    case fatbin_entry_kind::ptx:
      return "PTX";
    case fatbin_entry_kind::cubin:
      return "cubin";
    case fatbin_entry_kind::lto_ir:
      return "LTO IR";
    case fatbin_entry_kind::unknown:
      break;
  }
  return "unknown kind";
}

// Decompressed sizes a stream of `stored` bytes can honestly claim: LZ4 expands at most 255-fold; a
// Zstandard frame states its content size. Refuses a corrupted size before allocating it.
void check_claimed_size(const binary_view& stored, const fatbin_entry& entry) {
  const std::uint64_t claimed = entry.uncompressed_size;
  if (claimed == 0)
    stored.fail(0, fmt::format("{}-compressed payload claims 0 bytes uncompressed", entry.compression));
  if (entry.compression == "lz4") {
    if (claimed / 255 > stored.size() + 16) {
      stored.fail(0, fmt::format("LZ4 payload of {} bytes cannot hold the {} bytes its header claims",
                                 stored.size(), claimed));
    }
  } else {
    const unsigned long long content = ZSTD_getFrameContentSize(stored.data(), stored.size());
    if (content == ZSTD_CONTENTSIZE_ERROR)
      stored.fail(0, "Zstandard payload does not start with a Zstandard frame");
    if (content != ZSTD_CONTENTSIZE_UNKNOWN && content != claimed) {
      stored.fail(
          0, fmt::format("Zstandard frame holds {} bytes but the entry header claims {}", content, claimed));
    }
    if (content == ZSTD_CONTENTSIZE_UNKNOWN && claimed / 1024 > stored.size() + 16) {
      stored.fail(0, fmt::format("Zstandard payload of {} bytes claims {} bytes uncompressed", stored.size(),
                                 claimed));
    }
  }
}

// Reads the entry whose header starts at `at` in the container's entry area; returns the next offset.
std::uint64_t read_entry(const binary_view& entries, std::uint64_t at, std::size_t index,
                         std::vector<fatbin_entry>& out) {
  const std::string label = fmt::format("entry {}", index);
  const std::uint32_t header_size = entries.u32(at + 4, "fat binary entry header size");
  if (header_size < minimum_entry_header_size) {
    entries.fail(at, fmt::format("{} header is {} bytes; an entry header has at least {}", label, header_size,
                                 minimum_entry_header_size));
  }
  const binary_view header = entries.sub(at, header_size, label + " header");
  fatbin_entry entry;
  entry.raw_kind = header.u16(0, "entry kind");
  entry.kind = kind_of(entry.raw_kind);
  const std::uint64_t payload_size = header.u64(8, "entry payload size");
  const std::uint32_t compressed_size = header.u32(16, "entry compressed size");
  entry.architecture = static_cast<int>(header.u32(28, "entry architecture"));
  entry.flags = header.u64(40, "entry flags");
  entry.uncompressed_size = header.u64(56, "entry uncompressed size");
  const std::string name = fmt::format("{} ({} {})", label, kind_name(entry.kind), entry.architecture_name());
  entry.stored = entries.sub(at + header_size, payload_size, name);

  const bool lz4 = (entry.flags & flag_lz4) != 0;
  const bool zstd = (entry.flags & flag_zstd) != 0;
  if (lz4 && zstd)
    header.fail(40, fmt::format("flags {:#x} name both LZ4 and Zstandard compression", entry.flags));
  entry.compression = lz4 ? "lz4" : zstd ? "zstd" : "";
  if (!entry.compression.empty()) {
    if (compressed_size == 0 || compressed_size > payload_size) {
      header.fail(16, fmt::format("compressed size {} does not fit the {}-byte payload", compressed_size,
                                  payload_size));
    }
    entry.stored = binary_view(entry.stored.data(), compressed_size, entry.stored.origin());
  }
  out.push_back(std::move(entry));
  return at + header_size + payload_size;
}

}  // namespace

std::string fatbin_entry::architecture_suffix() const {
  if ((flags & flag_architecture_specific) != 0)
    return "a";
  if ((flags & flag_family_specific) != 0)
    return "f";
  return "";
}

std::string fatbin_entry::architecture_name() const {
  return fmt::format("{}_{}{}", kind == fatbin_entry_kind::cubin ? "sm" : "compute", architecture,
                     architecture_suffix());
}

binary_view fatbin_entry::payload(std::vector<std::uint8_t>& storage) const {
  if (compression.empty())
    return stored;
  check_claimed_size(stored, *this);
  if (storage.size() < uncompressed_size)
    storage.resize(uncompressed_size);  // grows only: a buffer reused across entries is zeroed once
  // Offsets inside decompressed data do not map to the file.
  const binary_origin origin{stored.origin().file, stored.origin().part, std::nullopt};
  if (compression == "lz4") {
    if (stored.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        uncompressed_size > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
      stored.fail(0, "LZ4 payload is too large");
    const int produced = LZ4_decompress_safe(
        reinterpret_cast<const char*>(stored.data()), reinterpret_cast<char*>(storage.data()),
        static_cast<int>(stored.size()), static_cast<int>(uncompressed_size));
    if (produced < 0 || static_cast<std::uint64_t>(produced) != uncompressed_size) {
      stored.fail(0,
                  fmt::format("LZ4 payload does not decompress to the {} bytes its header claims ({})",
                              uncompressed_size, produced < 0 ? "corrupt stream" : std::to_string(produced)));
    }
  } else {
    const std::size_t produced =
        ZSTD_decompress(storage.data(), uncompressed_size, stored.data(), stored.size());
    if (ZSTD_isError(produced) != 0 || produced != uncompressed_size) {
      stored.fail(0,
                  fmt::format("Zstandard payload does not decompress to the {} bytes its header claims ({})",
                              uncompressed_size,
                              ZSTD_isError(produced) != 0 ? ZSTD_getErrorName(produced)
                                                          : std::to_string(produced) + " bytes"));
    }
  }
  return binary_view(storage.data(), static_cast<std::size_t>(uncompressed_size), origin);
}

bool starts_with_fatbin_magic(const binary_view& bytes) {
  return bytes.fits(0, 4) && bytes.u32(0, "fat binary magic") == fatbin_magic;
}

std::vector<fatbin_entry> read_fatbin_containers(const binary_view& bytes) {
  std::vector<fatbin_entry> entries;
  std::uint64_t at = 0;
  std::size_t container = 0;
  while (at < bytes.size()) {
    if (bytes.data()[at] == 0) {  // alignment padding between containers
      ++at;
      continue;
    }
    const std::uint32_t magic = bytes.u32(at, "fat binary header");
    if (magic != fatbin_magic) {
      bytes.fail(at, fmt::format("expected a fat binary header (magic {:#010x}), found {:#010x}",
                                 fatbin_magic, magic));
    }
    const std::uint16_t header_size = bytes.u16(at + 6, "fat binary header size");
    if (header_size < container_header_size) {
      bytes.fail(at, fmt::format("fat binary header size is {}; it is at least {}", header_size,
                                 container_header_size));
    }
    const std::uint64_t size = bytes.u64(at + 8, "fat binary size");
    const binary_view body = bytes.sub(at + header_size, size, fmt::format("fat binary {}", container));
    std::uint64_t entry_at = 0;
    std::size_t index = 0;
    while (entry_at < body.size())
      entry_at = read_entry(body, entry_at, index++, entries);
    at += header_size + size;
    ++container;
  }
  return entries;
}

}  // namespace counterguard
