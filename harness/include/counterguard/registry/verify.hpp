#pragma once

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include "counterguard/registry/kernel_run.hpp"

namespace counterguard {

// Compares an output with its CPU reference element by element; reports the first mismatch and the count.
// `tolerance` is relative to max(1, |expected|); 0 compares exactly. NaN never matches.
template <typename T>
[[nodiscard]] verification compare_with_reference(const std::string& what, const std::vector<T>& actual,
                                                  const std::vector<T>& expected, double tolerance = 0.0) {
  if (actual.size() != expected.size()) {
    return verification::failure(what + ": " + std::to_string(actual.size()) + " elements, expected " +
                                 std::to_string(expected.size()));
  }
  std::size_t mismatches = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double a = static_cast<double>(actual[i]);
    const double e = static_cast<double>(expected[i]);
    const double allowed = tolerance * std::fmax(1.0, std::fabs(e));
    const bool ok = tolerance == 0.0 ? a == e : std::fabs(a - e) <= allowed;
    if (!ok) {
      if (mismatches == 0)
        first = i;
      ++mismatches;
    }
  }
  if (mismatches == 0)
    return verification::success();
  std::ostringstream message;
  message << what << "[" << first << "] = " << static_cast<double>(actual[first]) << ", expected "
          << static_cast<double>(expected[first]) << " (" << mismatches << " of " << actual.size()
          << " elements differ)";
  return verification::failure(message.str());
}

}  // namespace counterguard
