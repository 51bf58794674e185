// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace counterguard {

// Rows as a plain-text table: each column as wide as its widest cell, columns two spaces apart, the last
// column unpadded; one line (ending in '\n') per row.
[[nodiscard]] std::string align_columns(const std::vector<std::vector<std::string>>& rows);

}  // namespace counterguard
