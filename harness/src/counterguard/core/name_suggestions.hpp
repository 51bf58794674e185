// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace counterguard {

// Edit distance between two names, for suggestions.
[[nodiscard]] std::size_t edit_distance(const std::string& a, const std::string& b);

// The closest `count` candidates to `name`, nearest first.
[[nodiscard]] std::vector<std::string> closest_names(const std::string& name,
                                                     const std::vector<std::string>& candidates,
                                                     std::size_t count);

// "'a', 'b', 'c'": names as error messages list them.
[[nodiscard]] std::string quoted_list(const std::vector<std::string>& names);

// "a, b, c".
[[nodiscard]] std::string comma_list(const std::vector<std::string>& items);

// "did you mean 'x'? " when some candidate is close enough to be the intended name (within half the name's
// length, at least 2 edits), else empty: "x" should not suggest "barriers".
[[nodiscard]] std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace counterguard
