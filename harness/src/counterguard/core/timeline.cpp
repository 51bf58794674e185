// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/timeline.hpp"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace counterguard {

void timeline_mark(const char* what) {
  static const bool enabled = std::getenv("COUNTERGUARD_TIMING") != nullptr;
  if (!enabled)
    return;
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  std::fprintf(stderr, "timeline %ld.%09ld %d %s\n", static_cast<long>(now.tv_sec), now.tv_nsec,
               static_cast<int>(::getpid()), what);
}

}  // namespace counterguard
