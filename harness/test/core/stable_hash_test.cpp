// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/stable_hash.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

TEST(stable_hash, is_fnv1a) {
  // Published FNV-1a 64 test vectors: shard assignments must not depend on the standard library.
  EXPECT_EQ(stable_hash(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(stable_hash("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(stable_hash("foobar"), 0x85944171f73967e8ULL);
}

}  // namespace
}  // namespace counterguard
