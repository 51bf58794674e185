// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// The SHA-256 digest of `text` (what tells runs apart in the history and findings apart across runs), 64
// lower-case hex digits (OpenSSL). internal_error if OpenSSL fails.
[[nodiscard]] std::string sha256_hex(const std::string& text);

}  // namespace counterguard
