// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/injection_library.hpp"

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

constexpr const char* injection_file = "libcounterguard_injection.so";

bool is_file(const fs::path& path) {
  std::error_code status;
  return fs::is_regular_file(path, status);
}

}  // namespace

std::string find_injection_library(const std::string& executable) {
  if (const char* variable = std::getenv("COUNTERGUARD_INJECTION_PATH");
      variable != nullptr && *variable != '\0') {
    if (!is_file(variable)) {
      throw environment_error(environment_problem::file_system,
                              std::string("COUNTERGUARD_INJECTION_PATH names '") + variable +
                                  "', which is not a file; point it at libcounterguard_injection.so");
    }
    return fs::absolute(variable).string();
  }
  const fs::path self = fs::path(executable).parent_path();
  std::vector<fs::path> candidates{self / injection_file, self / "lib" / injection_file,
                                   self.parent_path() / COUNTERGUARD_INJECTION_INSTALL_DIR / injection_file,
                                   self.parent_path() / "lib" / injection_file};
#ifdef COUNTERGUARD_INJECTION_BUILD_PATH
  candidates.emplace_back(COUNTERGUARD_INJECTION_BUILD_PATH);
#endif
  for (const auto& candidate : candidates) {
    if (is_file(candidate))
      return candidate.string();
  }
  throw environment_error(environment_problem::file_system,
                          std::string("cannot find ") + injection_file + " next to " + self.string() +
                              " (build the counterguard_injection target) or in COUNTERGUARD_INJECTION_PATH");
}

}  // namespace counterguard
