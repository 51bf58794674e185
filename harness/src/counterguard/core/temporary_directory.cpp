// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/temporary_directory.hpp"

#include <stdlib.h>  // NOLINT(modernize-deprecated-headers): mkdtemp is POSIX, not in <cstdlib>

#include <filesystem>

#include "counterguard/core/error.hpp"

namespace counterguard {

temporary_directory::temporary_directory(const std::string& prefix) {
  std::error_code status;
  const std::filesystem::path base = std::filesystem::temp_directory_path(status);
  std::string pattern = ((status ? std::filesystem::path("/tmp") : base) / (prefix + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw environment_error(
        environment_problem::file_system,
        "cannot create a temporary directory '" + pattern + "' (set TMPDIR to a writable one)");
  }
  m_path = pattern;
}

temporary_directory::~temporary_directory() {
  std::error_code ignored;
  std::filesystem::remove_all(m_path, ignored);
}

}  // namespace counterguard
