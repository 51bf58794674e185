// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// What `counterguard --version` prints: the release, the commit the build was configured from ("unknown"
// outside a git checkout, e.g. an unpacked source archive), and the CUDA toolkit and CUPTI API it was
// compiled against.
[[nodiscard]] std::string build_identity();

}  // namespace counterguard
