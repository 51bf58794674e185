// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>

namespace counterguard {

// 64-bit FNV-1a of the text: the same on every machine and build (std::hash is not), for what must not move
// between them (which shard a case instance belongs to).
[[nodiscard]] std::uint64_t stable_hash(const std::string& text,
                                        std::uint64_t seed = 14695981039346656037ULL);

}  // namespace counterguard
