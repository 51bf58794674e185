// SPDX-License-Identifier: Apache-2.0
#include "counterguard/registry/input_fill.hpp"

#include <cmath>

#include "counterguard/registry/splitmix64.hpp"

namespace counterguard {
namespace {

input_fill make(input_fill::kind what, double low, double high) {
  input_fill fill;
  fill.what = what;
  fill.low = low;
  fill.high = high;
  return fill;
}

}  // namespace

input_fill uniform(double low, double high) {
  return make(input_fill::kind::uniform_real, low, high);
}

input_fill uniform_integers(std::int64_t low, std::int64_t high) {
  return make(input_fill::kind::uniform_integer, static_cast<double>(low), static_cast<double>(high));
}

input_fill constant(double value) {
  return make(input_fill::kind::constant, value, value);
}

input_fill sequence(double start, double step) {
  return make(input_fill::kind::sequence, start, step);
}

input_fill input_fill::with_seed(std::uint64_t value) const {
  input_fill copy = *this;
  copy.seed = value;
  return copy;
}

std::uint64_t seed_of_name(const std::string& name) {
  std::uint64_t hash = 0xCBF29CE484222325ULL;
  for (const char c : name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

double input_fill::value_at(std::size_t index, std::uint64_t effective_seed) const {
  switch (what) {
    case kind::constant:
      return low;
    case kind::sequence:
      return low + high * static_cast<double>(index);
    case kind::uniform_integer: {
      // The index-th output of a SplitMix64 sequence started at the seed: counter-based, so any element can
      // be generated alone (on the CPU or the GPU) and still match.
      std::uint64_t state = effective_seed + 0x9E3779B97F4A7C15ULL * index;
      const std::uint64_t bits = splitmix64(state);
      const auto span = static_cast<std::uint64_t>(high - low) + 1;
      return low + static_cast<double>(bits % span);
    }
    case kind::uniform_real: {
      std::uint64_t state = effective_seed + 0x9E3779B97F4A7C15ULL * index;
      const std::uint64_t bits = splitmix64(state);
      const double unit = static_cast<double>(bits >> 11U) * 0x1.0p-53;  // [0, 1) with 53 random bits
      return low + (high - low) * unit;
    }
  }
  return 0.0;
}

}  // namespace counterguard
