// GPU only: copies through the pinned staging buffers arrive whole and in order, in both directions, at sizes
// below, at and around the chunk (ctest -L gpu -R staged_copy).
#include "counterguard/registry/staged_copy.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/registry/device_buffer.hpp"

namespace counterguard {
namespace {

std::vector<std::uint8_t> pattern(std::size_t bytes, std::uint32_t seed) {
  std::vector<std::uint8_t> values(bytes);
  std::uint32_t state = seed;
  for (auto& value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<std::uint8_t>(state >> 24);
  }
  return values;
}

TEST(staged_copy, round_trips_every_size_around_the_chunk) {
  constexpr std::size_t chunk = std::size_t{4} << 20;
  for (const std::size_t bytes : {std::size_t{0}, std::size_t{1000}, std::size_t{1} << 20, chunk - 1, chunk,
                                  chunk + 1, 2 * chunk, 9 * chunk + 12345}) {
    const std::vector<std::uint8_t> sent = pattern(bytes, static_cast<std::uint32_t>(bytes) + 7u);
    device_buffer<std::uint8_t> device(bytes);
    copy_host_to_device(device.data(), sent.data(), bytes);
    // Checked against a plain cudaMemcpy, and through the staged download.
    std::vector<std::uint8_t> plain(bytes);
    COUNTERGUARD_CUDA_CHECK(cudaMemcpy(plain.data(), device.data(), bytes, cudaMemcpyDeviceToHost));
    EXPECT_EQ(plain, sent) << bytes << " bytes uploaded";
    std::vector<std::uint8_t> received(bytes, 0xAB);
    copy_device_to_host(received.data(), device.data(), bytes);
    EXPECT_EQ(received, sent) << bytes << " bytes downloaded";
  }
}

TEST(staged_copy, a_download_sees_what_the_default_stream_wrote_before_it) {
  device_buffer<std::uint32_t> device(std::size_t{3} << 20);
  device.fill_bytes(0x5A);  // cudaMemset on the legacy default stream, not waited for
  const std::vector<std::uint32_t> values = device.download();
  for (std::size_t i = 0; i < values.size(); i += 4099)
    ASSERT_EQ(values[i], 0x5A5A5A5Au) << i;
  EXPECT_EQ(values.back(), 0x5A5A5A5Au);
}

}  // namespace
}  // namespace counterguard
