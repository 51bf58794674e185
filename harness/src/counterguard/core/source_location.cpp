// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/source_location.hpp"

namespace counterguard {

std::string source_location::to_string() const {
  if (line <= 0)
    return file;
  std::string text = file + ":" + std::to_string(line);
  if (column > 0)
    text += ":" + std::to_string(column);
  return text;
}

}  // namespace counterguard
