// SPDX-License-Identifier: Apache-2.0
#include "counterguard/statics/binary_view.hpp"

#include <fmt/format.h>

#include <cstring>

#include "counterguard/core/error.hpp"

namespace counterguard {

binary_origin binary_origin::within(const std::string& name, std::uint64_t offset) const {
  binary_origin inner;
  inner.file = file;
  inner.part = part.empty() ? name : part + " > " + name;
  if (file_offset)
    inner.file_offset = *file_offset + offset;
  return inner;
}

std::string binary_origin::describe_offset(std::uint64_t offset) const {
  if (part.empty() && file_offset == std::uint64_t{0})
    return fmt::format("at file offset {:#x}", offset);
  if (file_offset)
    return fmt::format("at offset {:#x} (file offset {:#x})", offset, *file_offset + offset);
  return fmt::format("at offset {:#x} of the decompressed data", offset);
}

binary_view::binary_view(const std::uint8_t* data, std::size_t size, binary_origin origin)
    : m_data(data), m_size(size), m_origin(std::move(origin)) {}

bool binary_view::fits(std::uint64_t offset, std::uint64_t length) const {
  return offset <= m_size && length <= m_size - offset;
}

void binary_view::fail(std::uint64_t offset, const std::string& problem) const {
  throw input_error(source_location{m_origin.file}, m_origin.part,
                    problem + " " + m_origin.describe_offset(offset),
                    "the file looks truncated or corrupted; rebuild it with nvcc");
}

void binary_view::require(std::uint64_t offset, std::uint64_t length, const char* what) const {
  if (!fits(offset, length)) {
    fail(offset, fmt::format("{} needs {} bytes but only {} remain", what, length,
                             offset < m_size ? m_size - offset : 0));
  }
}

namespace {

template <typename T>
T read_little_endian(const std::uint8_t* p) {
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i)
    value = static_cast<T>(value | (static_cast<T>(p[i]) << (8 * i)));
  return value;
}

}  // namespace

std::uint8_t binary_view::u8(std::uint64_t offset, const char* what) const {
  require(offset, 1, what);
  return m_data[offset];
}

std::uint16_t binary_view::u16(std::uint64_t offset, const char* what) const {
  require(offset, 2, what);
  return read_little_endian<std::uint16_t>(m_data + offset);
}

std::uint32_t binary_view::u32(std::uint64_t offset, const char* what) const {
  require(offset, 4, what);
  return read_little_endian<std::uint32_t>(m_data + offset);
}

std::uint64_t binary_view::u64(std::uint64_t offset, const char* what) const {
  require(offset, 8, what);
  return read_little_endian<std::uint64_t>(m_data + offset);
}

std::string binary_view::c_string(std::uint64_t offset, const char* what) const {
  require(offset, 1, what);
  const void* end = std::memchr(m_data + offset, '\0', m_size - offset);
  if (end == nullptr)
    fail(offset, fmt::format("{} has no terminating NUL", what));
  return std::string(reinterpret_cast<const char*>(m_data + offset),
                     static_cast<const std::uint8_t*>(end) - (m_data + offset));
}

binary_view binary_view::sub(std::uint64_t offset, std::uint64_t length, const std::string& name) const {
  if (!fits(offset, length)) {
    fail(offset, fmt::format("{} of {} bytes extends past the end ({} bytes remain)", name, length,
                             offset < m_size ? m_size - offset : 0));
  }
  return binary_view(m_data + offset, static_cast<std::size_t>(length), m_origin.within(name, offset));
}

}  // namespace counterguard
