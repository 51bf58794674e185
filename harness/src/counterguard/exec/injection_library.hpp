// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// The injection library `counterguard exec` loads into every process of a program
// (libcounterguard_injection.so): COUNTERGUARD_INJECTION_PATH, else next to `executable` or in its lib/
// (build trees; runners get a copy from counterguard_add_runner), then where `cmake --install` puts it
// relative to the installed tool, then where this build put it. environment_error (file_system) when none is
// a file.
[[nodiscard]] std::string find_injection_library(const std::string& executable);

}  // namespace counterguard
