// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// A new, empty directory under the system's temporary directory, removed with everything in it when this
// object goes. Throws environment_error when none can be created.
class temporary_directory {
 public:
  explicit temporary_directory(const std::string& prefix);
  ~temporary_directory();
  temporary_directory(const temporary_directory&) = delete;
  temporary_directory& operator=(const temporary_directory&) = delete;

  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

}  // namespace counterguard
