// SPDX-License-Identifier: Apache-2.0
#include "counterguard/registry/host_memory_reuse.hpp"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdlib>
#include <cstring>

namespace counterguard {
namespace {

// A 64 MB block (a large case's input vector) comes from the heap, and stays there once freed, so the next
// case's block of that size touches no new pages. Without reuse_host_memory glibc maps it on its own and
// unmaps it at free().
TEST(host_memory_reuse, a_freed_large_block_stays_in_the_process_for_the_next_one) {
  reuse_host_memory();
  constexpr std::size_t bytes = std::size_t{64} << 20;
  const struct mallinfo2 before = mallinfo2();
  void* first = std::malloc(bytes);
  ASSERT_NE(first, nullptr);
  std::memset(first, 1, bytes);
  const struct mallinfo2 holding = mallinfo2();
  EXPECT_EQ(holding.hblkhd, before.hblkhd) << "the block was given its own mapping";
  EXPECT_GE(holding.arena, before.arena + bytes);
  std::free(first);
  const struct mallinfo2 freed = mallinfo2();
  EXPECT_EQ(freed.arena, holding.arena) << "the heap was trimmed";
  EXPECT_GE(freed.fordblks, bytes);
  void* second = std::malloc(bytes);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(mallinfo2().arena, holding.arena) << "the second block needed new memory";
  std::free(second);
}

}  // namespace
}  // namespace counterguard
