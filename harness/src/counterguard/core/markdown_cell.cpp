// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/markdown_cell.hpp"

namespace counterguard {

std::string markdown_cell(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '|') {
      escaped += "\\|";
    } else if (c == '\n' || c == '\r') {
      escaped += ' ';
    } else if (c == '`') {
      escaped += '\'';  // a backtick would end the code span the cell may be in
    } else {
      escaped += c;
    }
  }
  return escaped;
}

}  // namespace counterguard
