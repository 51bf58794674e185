// GPU only: the built-ins' input sequences written on the GPU (fill_elements_on_device) are, bit for bit,
// what their sequential host loops gave, at the built-in cases' seeds and sizes; the references the built-ins
// compute on the GPU (a histogram, a sum, C = A B in double) are the host's, and their checks fail on a
// planted wrong element with compare_with_reference's message (ctest -L gpu -R indexed_inputs_device).
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/device_elementwise.cuh"
#include "counterguard/registry/device_matrix_product.cuh"
#include "counterguard/registry/indexed_inputs.hpp"
#include "sequential_inputs.hpp"

namespace counterguard {
namespace {

bool have_gpu() {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

// How many elements the GPU fill of `sequence` differs from the loop's values in, naming the first.
template <typename T, typename Sequence>
void expect_gpu_fill_equals_loop(const std::string& what, const std::vector<T>& loop,
                                 const Sequence& sequence) {
  device_buffer<T> filled(loop.size());
  fill_elements_on_device(filled.data(), loop.size(), sequence);
  const std::vector<T> gpu = filled.download();
  std::size_t differ = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < loop.size(); ++i) {
    if (std::memcmp(&gpu[i], &loop[i], sizeof(T)) != 0) {
      first = differ == 0 ? i : first;
      ++differ;
    }
  }
  EXPECT_EQ(differ, 0U) << what << ": element " << first << " is " << gpu[first] << " on the GPU, "
                        << loop[first] << " from the host loop";
}

TEST(indexed_inputs_device, every_builtin_sequence_filled_on_the_gpu_is_its_host_loop) {
  if (!have_gpu())
    GTEST_SKIP() << "no CUDA device";
  namespace loop = sequential_inputs;
  const std::size_t n21 = std::size_t{1} << 21;
  expect_gpu_fill_equals_loop("occupancy x", loop::splitmix64_low_words(0x0CC0ULL, n21),
                              splitmix64_low_words{0x0CC0ULL});
  expect_gpu_fill_equals_loop("divergence x", loop::splitmix64_low_words(0xD1BE46EULL, n21),
                              splitmix64_low_words{0xD1BE46EULL});
  expect_gpu_fill_equals_loop("atomics values", loop::splitmix64_below(0xA70A1C5ULL, 1000, 1, n21 / 2),
                              splitmix64_below{0xA70A1C5ULL, 1000, 1});
  for (const std::uint64_t bins : {4096ULL, 65536ULL})
    expect_gpu_fill_equals_loop("histogram values, " + std::to_string(bins) + " bins",
                                loop::splitmix64_below(0x4157064AULL, bins, 0, n21),
                                splitmix64_below{0x4157064AULL, bins, 0});
  expect_gpu_fill_equals_loop("matmul a", loop::splitmix64_signed_unit_floats(0x3A7A1ULL, 512 * 512),
                              splitmix64_signed_unit_floats{0x3A7A1ULL});
  expect_gpu_fill_equals_loop("matmul b", loop::splitmix64_signed_unit_floats(0x3B7B2ULL, 512 * 512),
                              splitmix64_signed_unit_floats{0x3B7B2ULL});
  expect_gpu_fill_equals_loop("spills/local_array in", loop::lcg_words(4242u, 32768 * 64), lcg_words{4242u});
  expect_gpu_fill_equals_loop("spills register-heavy in", loop::lcg_words(99u, 32768 * 64), lcg_words{99u});
  expect_gpu_fill_equals_loop("texture in", loop::lcg_small_floats(777u, std::size_t{1} << 22),
                              lcg_small_floats{777u});
}

TEST(indexed_inputs_device, a_histogram_counted_on_the_gpu_is_the_hosts) {
  if (!have_gpu())
    GTEST_SKIP() << "no CUDA device";
  const std::size_t n = std::size_t{1} << 21;
  for (const std::uint64_t bins : {4096ULL, 65536ULL}) {
    std::vector<unsigned> expected(bins, 0U);
    for (const std::uint32_t value : sequential_inputs::splitmix64_below(0x4157064AULL, bins, 0, n))
      ++expected[value];
    device_buffer<unsigned> counts(bins);
    counts.fill_bytes(0xFF);  // zeroed by count_values_on_device
    count_values_on_device(counts.data(), bins, n, splitmix64_below{0x4157064AULL, bins, 0});
    EXPECT_EQ(counts.download(), expected) << bins << " bins";
  }
}

TEST(indexed_inputs_device, a_sum_added_on_the_gpu_is_the_hosts) {
  if (!have_gpu())
    GTEST_SKIP() << "no CUDA device";
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000003}, std::size_t{1} << 20}) {
    const std::vector<std::uint32_t> values = sequential_inputs::splitmix64_below(0xA70A1C5ULL, 1000, 1, n);
    EXPECT_EQ(sum_values_on_device(n, splitmix64_below{0xA70A1C5ULL, 1000, 1}),
              std::accumulate(values.begin(), values.end(), 0ULL))
        << n << " values";
  }
}

TEST(indexed_inputs_device, check_equal_names_the_first_mismatch_and_the_count) {
  if (!have_gpu())
    GTEST_SKIP() << "no CUDA device";
  std::vector<unsigned> reference(100);
  std::iota(reference.begin(), reference.end(), 0U);
  std::vector<unsigned> out = reference;
  const device_buffer<unsigned> expected(reference);
  device_buffer<unsigned> actual(out);
  EXPECT_TRUE(check_equal_on_device("h", actual.data(), expected.data(), out.size()).passed);
  out[5] = 7;
  out[90] = 1;
  actual.upload(out);
  const verification verdict = check_equal_on_device("h", actual.data(), expected.data(), out.size());
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.message, "h[5] = 7, expected 5 (2 of 100 elements differ)");
}

// The host reference of C = A B as the built-in matmul computed it: double sums over k in order.
template <typename T>
std::vector<double> host_product(const std::vector<T>& a, const std::vector<T>& b, std::size_t n) {
  std::vector<double> c(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < n; ++k) {
      const double a_ik = a[i * n + k];
      for (std::size_t j = 0; j < n; ++j)
        c[i * n + j] += a_ik * static_cast<double>(b[k * n + j]);
    }
  }
  return c;
}

TEST(indexed_inputs_device, the_gpu_matrix_reference_is_the_hosts_double_sum_to_the_bit) {
  if (!have_gpu())
    GTEST_SKIP() << "no CUDA device";
  const std::size_t n = 512;
  const std::vector<float> a_float = sequential_inputs::splitmix64_signed_unit_floats(0x3A7A1ULL, n * n);
  const std::vector<float> b_float = sequential_inputs::splitmix64_signed_unit_floats(0x3B7B2ULL, n * n);
  // As doubles with tolerance 0: the check passes only if every GPU sum equals the host's exactly.
  const std::vector<double> a(a_float.begin(), a_float.end());
  const std::vector<double> b(b_float.begin(), b_float.end());
  std::vector<double> c = host_product(a_float, b_float, n);
  const device_buffer<double> a_device(a);
  const device_buffer<double> b_device(b);
  device_buffer<double> c_device(c);
  const verification exact =
      check_matrix_product_on_device("c", a_device.data(), b_device.data(), c_device.data(), n, 0.0);
  EXPECT_TRUE(exact.passed) << exact.message;
  c[1027] = std::nextafter(c[1027], 2.0);
  c_device.upload(c);
  EXPECT_EQ(check_matrix_product_on_device("c", a_device.data(), b_device.data(), c_device.data(), n, 0.0)
                .message.rfind("c[1027] = ", 0),
            0U)
      << "one ulp off fails at tolerance 0";
}

TEST(indexed_inputs_device, a_float_product_passes_within_the_tolerance_and_a_wrong_or_missed_element_fails) {
  if (!have_gpu())
    GTEST_SKIP() << "no CUDA device";
  const std::size_t n = 256;
  const std::vector<float> a = sequential_inputs::splitmix64_signed_unit_floats(0x3A7A1ULL, n * n);
  const std::vector<float> b = sequential_inputs::splitmix64_signed_unit_floats(0x3B7B2ULL, n * n);
  const std::vector<double> reference = host_product(a, b, n);
  std::vector<float> c(reference.begin(), reference.end());
  const device_buffer<float> a_device(a);
  const device_buffer<float> b_device(b);
  device_buffer<float> c_device(c);
  const verification right =
      check_matrix_product_on_device("c", a_device.data(), b_device.data(), c_device.data(), n, 1e-4);
  EXPECT_TRUE(right.passed) << right.message;
  c[300] += 0.01F;
  c[60000] = NAN;  // an element the kernel never wrote
  c_device.upload(c);
  const verification wrong =
      check_matrix_product_on_device("c", a_device.data(), b_device.data(), c_device.data(), n, 1e-4);
  EXPECT_FALSE(wrong.passed);
  std::vector<double> actual(c.begin(), c.end());
  EXPECT_EQ(wrong.message, compare_with_reference("c", actual, reference, 1e-4).message)
      << "the message compare_with_reference gives";
}

}  // namespace
}  // namespace counterguard
// SPDX-License-Identifier: Apache-2.0
