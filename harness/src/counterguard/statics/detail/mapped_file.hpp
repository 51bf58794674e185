// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace counterguard::detail {

// A file mapped read-only into memory for as long as this object lives: a large shared library is read
// only where its headers and fat binaries are, not copied whole. Throws input_error when the path cannot
// be opened or is not a regular file.
class mapped_file {
 public:
  explicit mapped_file(const std::string& path);
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  ~mapped_file();

  [[nodiscard]] const std::uint8_t* data() const { return m_data; }
  [[nodiscard]] std::size_t size() const { return m_size; }

 private:
  const std::uint8_t* m_data = nullptr;
  std::size_t m_size = 0;
};

}  // namespace counterguard::detail
