// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/markup_escape.hpp"

namespace counterguard {

std::string escape_markup(std::string_view text, markup_language language) {
  const bool xml = language == markup_language::xml;
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += xml ? "&apos;" : "&#39;";
        break;
      case '\t':
        escaped += xml ? "&#9;" : "\t";
        break;
      case '\n':
        escaped += xml ? "&#10;" : "\n";
        break;
      case '\r':
        escaped += xml ? "&#13;" : "\r";
        break;
      default:
        if (xml && (static_cast<unsigned char>(c) < 0x20 || c == 0x7f))
          escaped += '?';
        else
          escaped += c;
    }
  }
  return escaped;
}

}  // namespace counterguard
