// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// Where a piece of user input came from: a file and, for YAML, the line and column (1-based; 0 = unknown).
struct source_location {
  std::string file;
  int line = 0;
  int column = 0;

  // "cases/transpose.yaml:12:7", or just the file when the position is unknown.
  [[nodiscard]] std::string to_string() const;
};

}  // namespace counterguard
