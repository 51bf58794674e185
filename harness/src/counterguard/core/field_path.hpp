// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>

namespace counterguard {

// Field paths as error messages name them: "cases[2].launch.block", "metadata.gpu_key". Every reader of
// user files (YAML suites and baselines, results JSON, archives) builds them the same way.
[[nodiscard]] inline std::string field_at(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}
[[nodiscard]] inline std::string index_at(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

}  // namespace counterguard
