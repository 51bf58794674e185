// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace counterguard {

// Where a run of bytes lies inside a file the user named, so that an error can say where it is:
// "build/app: field '.nv_fatbin > fat binary 1 > entry 0 (cubin sm_90)': ... at file offset 0x8e9c0".
struct binary_origin {
  std::string file;                          // the path as the user gave it
  std::string part;                          // "" for the file itself, else the chain of containers
  std::optional<std::uint64_t> file_offset;  // where `part` begins in the file; none inside decompressed data

  // The origin of a part that starts `offset` bytes into this one.
  [[nodiscard]] binary_origin within(const std::string& name, std::uint64_t offset) const;
  // "at offset 0x24 (file offset 0x8e9e4)" or "at offset 0x24 of the decompressed data".
  [[nodiscard]] std::string describe_offset(std::uint64_t offset) const;
};

// A bounds-checked, little-endian view of bytes someone else owns. Every read past the end throws an
// input_error that names the file, the part and the offset; nothing here can read out of bounds.
class binary_view {
 public:
  binary_view() = default;
  binary_view(const std::uint8_t* data, std::size_t size, binary_origin origin);

  [[nodiscard]] const std::uint8_t* data() const { return m_data; }
  [[nodiscard]] std::size_t size() const { return m_size; }
  [[nodiscard]] const binary_origin& origin() const { return m_origin; }

  // `what` names the value in the message when the read does not fit ("ELF section header 3").
  [[nodiscard]] std::uint8_t u8(std::uint64_t offset, const char* what) const;
  [[nodiscard]] std::uint16_t u16(std::uint64_t offset, const char* what) const;
  [[nodiscard]] std::uint32_t u32(std::uint64_t offset, const char* what) const;
  [[nodiscard]] std::uint64_t u64(std::uint64_t offset, const char* what) const;
  // A NUL-terminated string starting at offset.
  [[nodiscard]] std::string c_string(std::uint64_t offset, const char* what) const;
  // `length` bytes from `offset`, as a part named `name` of this one.
  [[nodiscard]] binary_view sub(std::uint64_t offset, std::uint64_t length, const std::string& name) const;
  [[nodiscard]] bool fits(std::uint64_t offset, std::uint64_t length) const;

  // Throws an input_error naming the file, the part and the offset.
  [[noreturn]] void fail(std::uint64_t offset, const std::string& problem) const;

 private:
  void require(std::uint64_t offset, std::uint64_t length, const char* what) const;

  const std::uint8_t* m_data = nullptr;
  std::size_t m_size = 0;
  binary_origin m_origin;
};

}  // namespace counterguard
