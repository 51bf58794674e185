// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the history tests share: the H200 recording's results, scratch files, and raw SQLite access for
// building databases by hand and checking what is on disk.

#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "counterguard/results/run_results.hpp"

namespace counterguard::test {

// The results of `counterguard run cases/` on an H200 (harness/test/fixtures/h200_builtin).
inline run_results recorded_h200_results() {
  static const run_results results = load_run_results(std::string(COUNTERGUARD_SOURCE_DIR) +
                                                      "/harness/test/fixtures/h200_builtin/results.json");
  return results;
}

// A scratch directory removed at the end of the test.
class scratch_directory {
 public:
  scratch_directory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "counterguard-history-XXXXXX").string();
    m_path = ::mkdtemp(pattern.data());
  }
  scratch_directory(const scratch_directory&) = delete;
  scratch_directory& operator=(const scratch_directory&) = delete;
  ~scratch_directory() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  [[nodiscard]] std::string file(const std::string& name) const { return (m_path / name).string(); }

 private:
  std::filesystem::path m_path;
};

// A raw SQLite connection, for what the tests do behind the store's back.
class raw_database {
 public:
  explicit raw_database(const std::string& path) { sqlite3_open(path.c_str(), &m_handle); }
  ~raw_database() { sqlite3_close(m_handle); }
  raw_database(const raw_database&) = delete;
  raw_database& operator=(const raw_database&) = delete;

  // Runs SQL; returns SQLite's error message, empty on success.
  std::string execute(const std::string& sql) {
    char* message = nullptr;
    const int status = sqlite3_exec(m_handle, sql.c_str(), nullptr, nullptr, &message);
    std::string text = status == SQLITE_OK ? "" : (message != nullptr ? message : "error");
    sqlite3_free(message);
    return text;
  }

  // The first column of the first row of a query, as text.
  std::string scalar(const std::string& sql) {
    sqlite3_stmt* statement = nullptr;
    std::string value = "<error>";
    if (sqlite3_prepare_v2(m_handle, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(statement, 0);
      value = text == nullptr ? "" : reinterpret_cast<const char*>(text);
    }
    sqlite3_finalize(statement);
    return value;
  }

 private:
  sqlite3* m_handle = nullptr;
};

}  // namespace counterguard::test
