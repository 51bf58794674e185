// SPDX-License-Identifier: Apache-2.0
#include "injection_trace.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace counterguard::injection {

void warn(const std::string& message) {
  std::fprintf(stderr, "counterguard injection (pid %d): %s\n", static_cast<int>(::getpid()),
               message.c_str());
}

bool tracing() {
  static const bool enabled = [] {
    const char* value = std::getenv("COUNTERGUARD_INJECTION_TRACE");
    return value != nullptr && *value != '\0' && *value != '0';
  }();
  return enabled;
}

void trace(const std::string& message) {
  if (tracing())
    warn("trace: " + message);
}

}  // namespace counterguard::injection
