// SPDX-License-Identifier: Apache-2.0
// GPU only (label gpu): the GPU input fill writes exactly the bits the host fill writes, for every fill kind
// and element type, and a kernel registered with COUNTERGUARD_KERNEL arrays sees those inputs on both sides.
#include "counterguard/registry/device_fill.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "counterguard/registry/array_kernel.hpp"
#include "counterguard/registry/device_buffer.hpp"
#include "counterguard/registry/verify.hpp"

namespace counterguard {
namespace {

constexpr std::size_t elements =
    (std::size_t{1} << 20) + 37;  // more than one grid-stride pass at 65536 blocks

bool have_gpu() {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

// The fills tried for every element type; every value they give fits even in a signed char.
std::vector<std::pair<std::string, input_fill>> fills_that_fit_every_type() {
  return {{"uniform reals", uniform(0.0, 100.0)},
          {"uniform integers", uniform_integers(0, 120)},
          {"constant", constant(42.75)},
          {"sequence", sequence(0.5, 0.0001)}};
}

template <typename T>
void expect_device_fill_matches_host(const std::string& fill_name, const input_fill& fill) {
  const std::uint64_t seed = seed_of_name("device_fill_test/" + fill_name);
  // Plain arrays, not std::vector (std::vector<bool> has no data()).
  const std::unique_ptr<T[]> host(new T[elements]);
  for (std::size_t i = 0; i < elements; ++i)
    host[i] = static_cast<T>(fill.value_at(i, seed));
  device_buffer<unsigned char> device(elements * sizeof(T));
  fill_on_device<T>(fill, seed, elements, reinterpret_cast<T*>(device.data()), nullptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<unsigned char> bytes = device.download();
  const std::unique_ptr<T[]> filled(new T[elements]);
  std::memcpy(filled.get(), bytes.data(), bytes.size());
  std::size_t differ = 0;
  std::size_t first = elements;
  for (std::size_t i = 0; i < elements; ++i) {
    if (std::memcmp(&filled[i], &host[i], sizeof(T)) != 0) {
      first = differ == 0 ? i : first;
      ++differ;
    }
  }
  EXPECT_EQ(differ, 0U) << fill_name << " into " << typeid(T).name() << ": element " << first << " is "
                        << static_cast<double>(filled[first]) << " on the GPU, "
                        << static_cast<double>(host[first]) << " on the host";
}

template <typename T>
void expect_every_fill_matches_host() {
  for (const auto& [name, fill] : fills_that_fit_every_type())
    expect_device_fill_matches_host<T>(name, fill);
}

TEST(device_fill, every_fill_kind_gives_the_host_bits_for_every_element_type) {
  if (!have_gpu())
    GTEST_SKIP() << "no CUDA device";
  expect_every_fill_matches_host<bool>();
  expect_every_fill_matches_host<char>();
  expect_every_fill_matches_host<signed char>();
  expect_every_fill_matches_host<unsigned char>();
  expect_every_fill_matches_host<short>();
  expect_every_fill_matches_host<unsigned short>();
  expect_every_fill_matches_host<int>();
  expect_every_fill_matches_host<unsigned>();
  expect_every_fill_matches_host<long>();
  expect_every_fill_matches_host<unsigned long>();
  expect_every_fill_matches_host<long long>();
  expect_every_fill_matches_host<unsigned long long>();
  expect_every_fill_matches_host<float>();
  expect_every_fill_matches_host<double>();
}

// Ranges and steps whose products and sums round: a fused multiply-add anywhere would change low bits.
TEST(device_fill, real_arithmetic_rounds_like_the_host_without_fused_multiply_adds) {
  if (!have_gpu())
    GTEST_SKIP() << "no CUDA device";
  for (const auto& [name, fill] : std::vector<std::pair<std::string, input_fill>>{
           {"wide reals", uniform(-1.0e3 / 3.0, 7.0e5 / 9.0)},
           {"rounding sequence", sequence(0.1, 0.3)},
           {"negative sequence", sequence(-3.3, -0.7)},
           {"large integers", uniform_integers(-(std::int64_t{1} << 40), std::int64_t{1} << 40)},
           {"explicit seed", uniform(-1.0, 1.0).with_seed(0xFFFFFFFFFFFFFFFFULL)}}) {
    expect_device_fill_matches_host<double>(name, fill);
    expect_device_fill_matches_host<float>(name, fill);
    expect_device_fill_matches_host<long long>(name, fill);
  }
}

// A COUNTERGUARD_KERNEL-style variant whose "kernel" copies x into y: its verification reads the inputs the
// GPU generated back through array_check, and a wrong expectation still fails with the first mismatch.
TEST(device_fill, array_kernel_inputs_are_filled_on_the_gpu_and_seen_by_verify) {
  if (!have_gpu())
    GTEST_SKIP() << "no CUDA device";
  kernel_registry registry;
  array_kernel(registry.add("device_fill_test/copy"))
      .parameter("n", std::int64_t{1} << 20, "elements")
      .input<float>("x", "n", uniform(-1, 1))
      .inout<int>("counts", "n", uniform_integers(-5, 5))
      .output<float>("y", "n")
      .run([](const array_launch& l) {
        ASSERT_EQ(cudaMemcpyAsync(l.out<float>("y"), l.in<float>("x"), l.size("x") * sizeof(float),
                                  cudaMemcpyDeviceToDevice, l.stream()),
                  cudaSuccess);
      })
      .verify([](const array_check& c) {
        const std::vector<float> x = c.input<float>("x");
        const input_fill fill = uniform(-1, 1);
        const std::uint64_t seed = seed_of_name("device_fill_test/copy/x");
        for (std::size_t i = 0; i < x.size(); ++i) {
          if (x[i] != static_cast<float>(fill.value_at(i, seed)))
            return verification::failure("x[" + std::to_string(i) + "] is not the generated value");
        }
        const std::vector<int> counts = c.input<int>("counts");
        const std::vector<int> counts_now = c.output<int>("counts");  // untouched by the copy
        if (counts != counts_now)
          return verification::failure("counts differ from the generated values");
        std::vector<float> wrong = x;
        wrong[777] += 1.0F;
        const verification planted = compare_with_reference("y", c.output<float>("y"), wrong);
        if (planted.passed || planted.message.rfind("y[777] = ", 0) != 0)
          return verification::failure("a planted wrong value passed: " + planted.message);
        return compare_with_reference("y", c.output<float>("y"), x);
      });
  const kernel_arguments arguments({{"n", parameter_value(std::int64_t{1} << 20)}}, {});
  const std::unique_ptr<kernel_run> run = registry.find("device_fill_test/copy")->create(arguments);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  run->launch(stream);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  const verification result = run->verify();
  EXPECT_TRUE(result.passed) << result.message;
}

}  // namespace
}  // namespace counterguard
