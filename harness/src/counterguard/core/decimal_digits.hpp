// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>

namespace counterguard {

// A number written as decimal digits alone (no sign, no space), at most `max_digits` of them so that it fits
// an int: its value; std::nullopt for anything else. For command-line counts and ordinals (--shard 2/4,
// --devices 0,1), whose messages say what would be valid.
[[nodiscard]] inline std::optional<int> parse_decimal_digits(const std::string& text,
                                                             std::size_t max_digits) {
  if (text.empty() || text.size() > max_digits ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoi(text);
}

}  // namespace counterguard
