// SPDX-License-Identifier: Apache-2.0
// GPU only: the `run` worker's device memory reuse hands a later case a block of the size it freed, keeps no
// more than its limit, and without it every allocation is cudaMalloc's (ctest -L gpu -R device_memory_reuse).
#include "counterguard/registry/device_memory_reuse.hpp"

#include <gtest/gtest.h>

#include <cstddef>

#include "counterguard/registry/device_buffer.hpp"

namespace counterguard {
namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

TEST(device_memory_reuse, a_freed_block_goes_to_the_next_allocation_of_its_size) {
  const device_memory_reuse reuse(8 * mib);
  void* first = allocate_device_memory(4 * mib);
  free_device_memory(first, 4 * mib);
  void* other_size = allocate_device_memory(2 * mib);
  EXPECT_NE(other_size, first);
  void* same_size = allocate_device_memory(4 * mib);
  EXPECT_EQ(same_size, first);
  free_device_memory(other_size, 2 * mib);
  free_device_memory(same_size, 4 * mib);
}

TEST(device_memory_reuse, keeps_no_more_than_its_limit_dropping_the_oldest) {
  const device_memory_reuse reuse(6 * mib);
  void* a = allocate_device_memory(4 * mib);
  void* b = allocate_device_memory(4 * mib);
  void* too_large = allocate_device_memory(7 * mib);
  free_device_memory(a, 4 * mib);
  free_device_memory(b, 4 * mib);  // 8 MiB kept would pass the limit: a goes
  free_device_memory(too_large, 7 * mib);
  void* again = allocate_device_memory(4 * mib);
  EXPECT_EQ(again, b);
  void* large_again = allocate_device_memory(7 * mib);
  void* third = allocate_device_memory(4 * mib);
  free_device_memory(again, 4 * mib);
  free_device_memory(large_again, 7 * mib);
  free_device_memory(third, 4 * mib);
}

TEST(device_memory_reuse, device_buffers_use_it_and_nothing_is_kept_without_it) {
  const float* freed = nullptr;
  {
    const device_memory_reuse reuse(8 * mib);
    { freed = device_buffer<float>(mib / 4).data(); }
    const device_buffer<float> reused(mib / 4);
    EXPECT_EQ(reused.data(), freed);
  }
  // Without reuse a freed block is cudaFree'd: a new allocation may or may not land there, but nothing is
  // kept for it (the kept list is empty, so an allocation of another size cannot get it either).
  void* a = allocate_device_memory(mib);
  void* b = allocate_device_memory(mib);
  EXPECT_NE(a, b);
  free_device_memory(a, mib);
  free_device_memory(b, mib);
}

}  // namespace
}  // namespace counterguard
