// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// `text` in double quotes with its quotes and backslashes escaped: a string YAML's flow style and a C++
// literal read back as `text` ("a\"b" for a"b).
[[nodiscard]] inline std::string double_quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace counterguard
