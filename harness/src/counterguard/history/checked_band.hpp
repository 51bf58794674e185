// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// The interval a baseline check accepted.
struct value_band {
  double low = 0.0;
  double high = 0.0;
};

// The acceptance band of a baseline check, read back from its `expected` text (results keep the text that
// baseline_comparison.cpp writes, not the numbers):
//   "X in [L, H]"       (noisy)                    -> [L, H]
//   "X (exact)"         (exact or static)          -> [X, X]
//   "X (±T%)"           (with a relative tolerance) -> [X - T% of |X|, X + T% of |X|]
//   "0 (must stay 0)"   (a zero baseline)          -> [0, 0]
// Expectation checks, checks without a baseline and text of another form: std::nullopt.
[[nodiscard]] std::optional<value_band> band_of_check(const check_outcome& check);

}  // namespace counterguard
