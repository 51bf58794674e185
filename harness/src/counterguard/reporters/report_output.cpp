// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/report_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

int& reserved_standard_output() {
  static int descriptor = -1;
  return descriptor;
}

[[noreturn]] void standard_output_failed(const char* what) {
  throw environment_error(environment_problem::file_system,
                          std::string("cannot ") + what + " standard output: " + std::strerror(errno));
}

}  // namespace

void write_report_text(const std::string& path, const std::string& text) {
  if (!is_standard_output(path)) {
    write_file_atomically(path, text);
    return;
  }
  std::fflush(stdout);
  const int descriptor = reserved_standard_output() >= 0 ? reserved_standard_output() : STDOUT_FILENO;
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t n = ::write(descriptor, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && errno == EPIPE)
      return;  // the reader stopped reading (`| head`): its choice, not a failure
    if (n <= 0)
      standard_output_failed("write the report to");
    written += static_cast<std::size_t>(n);
  }
}

standard_output_reservation::standard_output_reservation() {
  std::fflush(stdout);
  m_saved = ::dup(STDOUT_FILENO);
  if (m_saved < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    standard_output_failed("reserve");
  reserved_standard_output() = m_saved;
}

standard_output_reservation::~standard_output_reservation() {
  std::fflush(stdout);
  static_cast<void>(::dup2(m_saved, STDOUT_FILENO));
  ::close(m_saved);
  reserved_standard_output() = -1;
}

}  // namespace counterguard
