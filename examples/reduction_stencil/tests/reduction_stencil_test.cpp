// SPDX-License-Identifier: Apache-2.0
// The library's own tests: the outputs are right, and the counters that make it fast stay where they are.
// counterguard::profile measures the kernels a piece of test code launches, as `counterguard run` would.
#include <gtest/gtest.h>

#include <counterguard/counterguard.hpp>
#include <counterguard/gtest/profile.hpp>
#include <memory>
#include <random>
#include <vector>

#include "reduction_stencil/reduction.hpp"
#include "reduction_stencil/reference.hpp"
#include "reduction_stencil/stencil.hpp"

namespace rs = reduction_stencil;

namespace {

std::vector<float> random_floats(std::size_t count) {
  std::mt19937 generator(42);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (auto& v : values)
    v = value(generator);
  return values;
}

void expect_close(const std::vector<float>& actual, const std::vector<float>& expected, float tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i)
    ASSERT_NEAR(actual[i], expected[i], tolerance) << "element " << i;
}

// Every test runs on the GPU; without one (or without profiling permission) they are skipped, with the
// reason.
class reduction_stencil_test : public counterguard::profiling_test {
 protected:
  void SetUp() override {
    counterguard::profiling_test::SetUp();
    if (!IsSkipped())
      m_input = std::make_unique<counterguard::device_buffer<float>>(m_host);
  }
  [[nodiscard]] const float* input() const { return m_input->data(); }

  static constexpr int n = 1 << 20;
  std::vector<float> m_host = random_floats(n);
  std::unique_ptr<counterguard::device_buffer<float>> m_input;
};

TEST_F(reduction_stencil_test, sequential_addressing_sums_right_without_bank_conflicts) {
  counterguard::device_buffer<float> partial(n / rs::block_size);
  const auto m = counterguard::profile({"shared_load_bank_conflicts", "shared_store_bank_conflicts",
                                        "global_load_sectors_per_request", "spill_store_bytes"},
                                       [&] { rs::reduce_sequential(input(), partial.data(), n, nullptr); });
  expect_close(partial.download(), rs::block_sums(m_host), 1e-4f);
  COUNTERGUARD_EXPECT_METRIC_EQ(m, "shared_load_bank_conflicts", 0);
  COUNTERGUARD_EXPECT_METRIC_EQ(m, "shared_store_bank_conflicts", 0);
  COUNTERGUARD_EXPECT_METRIC_EQ(m, "global_load_sectors_per_request", 4);
  COUNTERGUARD_EXPECT_METRIC_EQ(m.for_kernel("sequential"), "spill_store_bytes", 0);
}

TEST_F(reduction_stencil_test, interleaved_addressing_sums_right_and_shows_its_bank_conflicts) {
  counterguard::device_buffer<float> partial(n / rs::block_size);
  const auto m = counterguard::profile({"shared_load_bank_conflicts"},
                                       [&] { rs::reduce_interleaved(input(), partial.data(), n, nullptr); });
  expect_close(partial.download(), rs::block_sums(m_host), 1e-4f);
  COUNTERGUARD_EXPECT_METRIC_GE(m, "shared_load_bank_conflicts", 1);
}

TEST_F(reduction_stencil_test, warp_shuffles_sum_right_with_one_shared_word_per_warp) {
  counterguard::device_buffer<float> partial(n / rs::block_size);
  const auto m = counterguard::profile({"shared_store_instructions", "shared_load_bank_conflicts"},
                                       [&] { rs::reduce_warp_shuffle(input(), partial.data(), n, nullptr); });
  expect_close(partial.download(), rs::block_sums(m_host), 1e-4f);
  // One store per warp: n / 32 threads' warps, 8 per block of 256.
  COUNTERGUARD_EXPECT_METRIC_EQ(m, "shared_store_instructions", n / 256 * 8);
  COUNTERGUARD_EXPECT_METRIC_EQ(m, "shared_load_bank_conflicts", 0);
}

TEST_F(reduction_stencil_test, the_register_window_filters_right_and_spills_only_when_bounded) {
  counterguard::device_buffer<float> free_out(n);
  counterguard::device_buffer<float> bounded_out(n);
  const auto m =
      counterguard::profile({"spill_store_bytes", "local_store_bytes", "registers_per_thread"}, [&] {
        rs::stencil_registers(input(), free_out.data(), n, nullptr);
        rs::stencil_registers_bounded(input(), bounded_out.data(), n, nullptr);
      });
  const std::vector<float> expected = rs::box_filter(m_host);
  expect_close(free_out.download(), expected, 1e-5f);
  expect_close(bounded_out.download(), expected, 1e-5f);
  COUNTERGUARD_EXPECT_METRIC_EQ(m.for_kernel("register_window<1>"), "spill_store_bytes", 0);
  COUNTERGUARD_EXPECT_METRIC_EQ(m.for_kernel("register_window<1>"), "local_store_bytes", 0);
  COUNTERGUARD_EXPECT_METRIC_GE(m.for_kernel("register_window<8>"), "spill_store_bytes", 1);
  COUNTERGUARD_EXPECT_METRIC_GE(m.for_kernel("register_window<8>"), "local_store_bytes", 1);
  COUNTERGUARD_EXPECT_METRIC_LE(m.for_kernel("register_window<8>"), "registers_per_thread", 32);
}

TEST(reduction_stencil_reference, block_sums_count_missing_elements_as_zero) {
  EXPECT_EQ(rs::block_sums({1, 2, 3}), (std::vector<float>{6}));
}

}  // namespace
