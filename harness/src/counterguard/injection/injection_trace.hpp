// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard::injection {

// A message on stderr, labelled with the process.
void warn(const std::string& message);
// COUNTERGUARD_INJECTION_TRACE=1: each step of loading and setting up, and the time each profiled launch
// spends where, on stderr (why a process is not profiled; where exec's overhead goes).
[[nodiscard]] bool tracing();
void trace(const std::string& message);

}  // namespace counterguard::injection
