// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/stable_hash.hpp"

namespace counterguard {

std::uint64_t stable_hash(const std::string& text, std::uint64_t seed) {
  std::uint64_t hash = seed;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

}  // namespace counterguard
