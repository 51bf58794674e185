// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/recording_directory.hpp"

#include <stdlib.h>

#include "counterguard/core/error.hpp"
#include "counterguard/exec/exec_envelope.hpp"

namespace counterguard {

namespace fs = std::filesystem;

recording_directory::recording_directory(const std::string& requested) {
  if (requested.empty()) {
    std::string pattern = (fs::temp_directory_path() / "counterguard-exec-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw environment_error(
          environment_problem::file_system,
          "cannot create a temporary directory for the recording in " + fs::temp_directory_path().string());
    }
    m_path = pattern;
    m_temporary = true;
    return;
  }
  m_path = fs::absolute(requested);
  std::error_code status;
  if (fs::exists(m_path, status) && !fs::is_empty(m_path, status)) {
    if (!is_exec_recording(m_path) && !fs::exists(m_path / exec_instructions_file)) {
      throw input_error({requested}, "--save-counter-data", "the directory is not empty",
                        "give a new or empty directory, or one an earlier `counterguard exec` recorded into");
    }
    fs::remove_all(m_path / "processes", status);
    fs::remove(m_path / exec_envelope_file, status);
  }
  fs::create_directories(m_path, status);
  if (status) {
    throw environment_error(environment_problem::file_system,
                            "cannot create " + m_path.string() + ": " + status.message());
  }
}

recording_directory::~recording_directory() {
  if (m_temporary) {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
}

}  // namespace counterguard
