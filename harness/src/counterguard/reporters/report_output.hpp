// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a report goes. Every option that names a report file (--json, --csv, --junit, --markdown, --html,
// --export) takes "-" for standard output, as most command-line tools read it (docs/cli.md, "Common
// options").

#include <string>

namespace counterguard {

inline constexpr const char* standard_output_path = "-";

[[nodiscard]] inline bool is_standard_output(const std::string& path) {
  return path == standard_output_path;
}

// Writes `text` to standard output for "-" (the reserved one while a standard_output_reservation lives), else
// atomically to the file (write_file_atomically): a reader sees the old report or the new one. A file that
// cannot be written is an environment_error naming it.
void write_report_text(const std::string& path, const std::string& text);

// While one lives, standard output is kept for the report written to "-": whatever else the process prints
// there (tables, listings, an `exec` program's output) goes to standard error, so `counterguard run --json -
// | jq` reads JSON only. One at a time; the destructor restores standard output.
class standard_output_reservation {
 public:
  standard_output_reservation();
  ~standard_output_reservation();
  standard_output_reservation(const standard_output_reservation&) = delete;
  standard_output_reservation& operator=(const standard_output_reservation&) = delete;

 private:
  int m_saved = -1;  // the real standard output while reserved
};

}  // namespace counterguard
