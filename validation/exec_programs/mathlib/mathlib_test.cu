// SPDX-License-Identifier: Apache-2.0
// The library's unit tests (GoogleTest).
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "mathlib.cuh"

namespace {

class device_buffer {
 public:
  explicit device_buffer(std::size_t count) {
    EXPECT_EQ(cudaMalloc(&m_data, count * sizeof(float)), cudaSuccess);
  }
  ~device_buffer() { cudaFree(m_data); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  float* get() const { return m_data; }

 private:
  float* m_data = nullptr;
};

class TransposeTest : public ::testing::TestWithParam<int> {};

TEST_P(TransposeTest, MatchesTheHostTranspose) {
  const int n = GetParam();
  std::vector<float> host(static_cast<std::size_t>(n) * n);
  std::iota(host.begin(), host.end(), 0.0f);
  device_buffer in(host.size()), out(host.size());
  ASSERT_EQ(cudaMemcpy(in.get(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice),
            cudaSuccess);
  ASSERT_EQ(mathlib::transpose(out.get(), in.get(), n), cudaSuccess);
  std::vector<float> result(host.size());
  ASSERT_EQ(cudaMemcpy(result.data(), out.get(), result.size() * sizeof(float), cudaMemcpyDeviceToHost),
            cudaSuccess);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c)
      ASSERT_EQ(result[static_cast<std::size_t>(c) * n + r], host[static_cast<std::size_t>(r) * n + c]);
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, TransposeTest, ::testing::Values(256, 1024));

TEST(ReduceTest, SumsOneMillionOnes) {
  const int n = 1 << 20;
  std::vector<float> host(n, 1.0f);
  device_buffer in(n), sum(1);
  ASSERT_EQ(cudaMemcpy(in.get(), host.data(), n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(sum.get(), 0, sizeof(float)), cudaSuccess);
  ASSERT_EQ(mathlib::reduce_sum(sum.get(), in.get(), n), cudaSuccess);
  float result = 0.0f;
  ASSERT_EQ(cudaMemcpy(&result, sum.get(), sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(result, static_cast<float>(n));
}

}  // namespace
