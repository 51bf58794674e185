// GPU only: inputs written and outputs checked on the GPU (device_elementwise.cuh) report like
// compare_with_reference: nothing for a right output, the first mismatch and the count for a wrong one
// (ctest -L gpu -R device_elementwise).
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/device_elementwise.cuh"

namespace counterguard {
namespace {

struct index_as_float {
  __host__ __device__ float operator()(std::size_t i) const { return static_cast<float>(i); }
};

struct nan_everywhere {
  __host__ __device__ float operator()(std::size_t) const { return NAN; }
};

TEST(device_elementwise, a_filled_array_checks_against_its_own_values) {
  constexpr std::size_t count = 100000;
  device_buffer<float> values(count);
  fill_elements_on_device(values.data(), count, index_as_float{});
  const std::vector<float> host = values.download();
  for (std::size_t i = 0; i < count; i += 997)
    ASSERT_EQ(host[i], static_cast<float>(i));
  const verification verdict = check_elements_on_device("out", values.data(), count, index_as_float{});
  EXPECT_TRUE(verdict.passed) << verdict.message;
  EXPECT_TRUE(verdict.checked);
  EXPECT_TRUE(check_elements_on_device("out", values.data(), 0, nan_everywhere{}).passed);
}

TEST(device_elementwise, a_wrong_output_names_its_first_mismatch_and_the_count) {
  constexpr std::size_t count = 100000;
  device_buffer<float> values(count);
  fill_elements_on_device(values.data(), count, index_as_float{});
  std::vector<float> host = values.download();
  host[99999] = -1.0f;
  host[1027] = 5.0f;
  values.upload(host);
  const verification verdict = check_elements_on_device("out", values.data(), count, index_as_float{});
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.message, "out[1027] = 5, expected 1027 (2 of 100000 elements differ)");
  EXPECT_EQ(check_elements_on_device("out", values.data(), count, nan_everywhere{}).message,
            "out[0] = 0, expected nan (100000 of 100000 elements differ)")
      << "NaN never matches";
}

}  // namespace
}  // namespace counterguard
// SPDX-License-Identifier: Apache-2.0
