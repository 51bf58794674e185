// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "counterguard/registry/kernel_run.hpp"
#include "counterguard/registry/parallel_for.hpp"

namespace counterguard {

// The failure of an output whose element `first` is the first of `mismatches` (of `count`) that differ:
// "c[1027] = 3.5, expected 4 (12 of 4096 elements differ)".
[[nodiscard]] inline verification mismatch_failure(const std::string& what, std::size_t first, double actual,
                                                   double expected, std::size_t mismatches,
                                                   std::size_t count) {
  std::ostringstream message;
  message << what << "[" << first << "] = " << actual << ", expected " << expected << " (" << mismatches
          << " of " << count << " elements differ)";
  return verification::failure(message.str());
}

// Compares an output with its CPU reference element by element; reports the first mismatch and the count.
// `tolerance` is relative to max(1, |expected|); 0 compares exactly. NaN never matches.
template <typename T>
[[nodiscard]] verification compare_with_reference(const std::string& what, const std::vector<T>& actual,
                                                  const std::vector<T>& expected, double tolerance = 0.0) {
  if (actual.size() != expected.size()) {
    return verification::failure(what + ": " + std::to_string(actual.size()) + " elements, expected " +
                                 std::to_string(expected.size()));
  }
  // Chunks compare in parallel; each keeps its first mismatch and its count, so the message is the one a
  // single loop would give.
  struct chunk_result {
    std::size_t first = 0;
    std::size_t mismatches = 0;
  };
  std::mutex merge;
  chunk_result total{actual.size(), 0};
  parallel_for(actual.size(), [&](std::size_t begin, std::size_t end) {
    chunk_result own{end, 0};
    for (std::size_t i = begin; i < end; ++i) {
      const double a = static_cast<double>(actual[i]);
      const double e = static_cast<double>(expected[i]);
      const double allowed = tolerance * std::fmax(1.0, std::fabs(e));
      const bool ok = tolerance == 0.0 ? a == e : std::fabs(a - e) <= allowed;
      if (!ok) {
        if (own.mismatches == 0)
          own.first = i;
        ++own.mismatches;
      }
    }
    const std::lock_guard<std::mutex> lock(merge);
    total.mismatches += own.mismatches;
    if (own.mismatches > 0)
      total.first = std::min(total.first, own.first);
  });
  const std::size_t mismatches = total.mismatches;
  const std::size_t first = total.first;
  if (mismatches == 0)
    return verification::success();
  return mismatch_failure(what, first, static_cast<double>(actual[first]),
                          static_cast<double>(expected[first]), mismatches, actual.size());
}

}  // namespace counterguard
