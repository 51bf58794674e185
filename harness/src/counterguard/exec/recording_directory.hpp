// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string>

namespace counterguard {

// Where an exec run records: --save-counter-data DIR (kept; an earlier exec recording there is replaced,
// never mixed with this one), or a temporary directory removed with this object. input_error for a directory
// that holds something else, environment_error when it cannot be made.
class recording_directory {
 public:
  explicit recording_directory(const std::string& requested);
  recording_directory(const recording_directory&) = delete;
  recording_directory& operator=(const recording_directory&) = delete;
  ~recording_directory();

  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
  [[nodiscard]] bool kept() const { return !m_temporary; }

 private:
  std::filesystem::path m_path;
  bool m_temporary = false;
};

}  // namespace counterguard
