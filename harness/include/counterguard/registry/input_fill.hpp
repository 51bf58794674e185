// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace counterguard {

// How an input array is filled. Element i depends only on the array's seed and i (the i-th value of the
// SplitMix64 sequence started at the seed), so inputs are identical between runs, machines, recorded
// fixtures and any order of generation.
struct input_fill {
  enum class kind { uniform_real, uniform_integer, constant, sequence };
  kind what = kind::uniform_real;
  double low = 0.0;        // uniform: the range; constant: the value; sequence: the first value
  double high = 1.0;       // uniform: the range (real: [low, high), integer: [low, high]); sequence: the step
  std::uint64_t seed = 0;  // 0: derived from the array's name

  // The same fill with an explicit seed.
  [[nodiscard]] input_fill with_seed(std::uint64_t value) const;
  // The value of element `index` as a double (the caller converts to the element type).
  [[nodiscard]] double value_at(std::size_t index, std::uint64_t effective_seed) const;
};

[[nodiscard]] input_fill uniform(double low, double high);                       // reals in [low, high)
[[nodiscard]] input_fill uniform_integers(std::int64_t low, std::int64_t high);  // integers in [low, high]
[[nodiscard]] input_fill constant(double value);
[[nodiscard]] input_fill sequence(double start = 0.0, double step = 1.0);  // start, start + step, ...

// The seed an array gets from its name when its fill sets none (FNV-1a of the name).
[[nodiscard]] std::uint64_t seed_of_name(const std::string& name);

}  // namespace counterguard
