// SPDX-License-Identifier: Apache-2.0
// The short registration: parameters, arrays with sizes and fills, a launch and an optional verification.
// What can be checked without a GPU: what it declares, the inputs it would generate, and what it refuses.
#include "counterguard/registry/array_kernel.hpp"

#include <gtest/gtest.h>

#include "counterguard/core/error.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/registry/splitmix64.hpp"

namespace counterguard {
namespace {

TEST(input_fill, element_i_is_the_ith_value_of_the_seeded_splitmix64_sequence) {
  std::uint64_t state = 1234;
  const input_fill fill = uniform_integers(0, 1000000);
  for (std::size_t i = 0; i < 100; ++i)
    EXPECT_EQ(fill.value_at(i, 1234), static_cast<double>(splitmix64(state) % 1000001)) << i;
}

TEST(input_fill, uniform_reals_stay_in_their_half_open_range) {
  const input_fill fill = uniform(-1.0, 1.0);
  for (std::size_t i = 0; i < 10000; ++i) {
    const double v = fill.value_at(i, 99);
    EXPECT_GE(v, -1.0);
    EXPECT_LT(v, 1.0);
  }
  EXPECT_NE(fill.value_at(0, 99), fill.value_at(0, 100));  // the seed matters
}

TEST(input_fill, constants_and_sequences) {
  EXPECT_EQ(constant(7).value_at(123, 1), 7.0);
  EXPECT_EQ(sequence(10, 2).value_at(5, 1), 20.0);
  EXPECT_NE(seed_of_name("a/in"), seed_of_name("a/out"));
}

class array_kernel_test : public ::testing::Test {
 protected:
  kernel_registry m_registry;
};

TEST_F(array_kernel_test, declares_parameters_and_functions_like_a_full_registration) {
  array_kernel(m_registry.add("demo/scale"))
      .describe("y = 2 x")
      .launches("demo::scale")
      .parameter("n", std::int64_t{1024}, "elements", range(1, 1 << 20))
      .input<float>("x", "n", uniform(-1, 1))
      .output<float>("y", "n")
      .run([](const array_launch&) {});
  const kernel_definition* definition = m_registry.find("demo/scale");
  ASSERT_NE(definition, nullptr);
  EXPECT_EQ(definition->description(), "y = 2 x");
  EXPECT_EQ(definition->device_functions(), std::vector<std::string>{"demo::scale"});
  EXPECT_EQ(definition->find_parameter("n")->allowed.describe(), "in [1, 1048576]");
}

TEST_F(array_kernel_test, an_array_declared_twice_or_a_bad_size_formula_is_refused_at_registration) {
  array_kernel kernel(m_registry.add("demo/twice"));
  kernel.input<float>("x", "n", uniform(0, 1));
  EXPECT_THROW(kernel.output<float>("x", "n"), registration_error);
  EXPECT_THROW(kernel.output<float>("y", "n /"), input_error);
}

TEST_F(array_kernel_test, a_kernel_without_run_cannot_be_created) {
  array_kernel(m_registry.add("demo/no_run")).parameter("n", std::int64_t{4});
  EXPECT_THROW(static_cast<void>(
                   m_registry.find("demo/no_run")->create(kernel_arguments({{"n", std::int64_t{4}}}, {}))),
               registration_error);
}

TEST_F(array_kernel_test, array_sizes_that_are_not_whole_numbers_are_refused_when_the_suite_loads) {
  array_kernel(m_registry.add("demo/partial"))
      .parameter("n", std::int64_t{1024}, "elements")
      .input<float>("in", "n", uniform(0, 1))
      .output<float>("partial", "n / 256")
      .run([](const array_launch&) {});
  const std::string path = ::testing::TempDir() + "/array_kernel_suite.yaml";
  {
    std::FILE* file = std::fopen(path.c_str(), "w");
    std::fputs(
        "suite: s\ncases:\n  - name: c\n    kernel: demo/partial\n    axes: {n: [1024, 1000]}\n"
        "    expect: {spill_store_bytes: 0}\n",
        file);
    std::fclose(file);
  }
  const suite loaded = load_suite(path, m_registry, metric_catalog::builtin());
  try {
    static_cast<void>(expand_instances(loaded, m_registry, metric_catalog::builtin()));
    FAIL() << "n = 1000 gives 3.9 partial sums";
  } catch (const input_error& e) {
    EXPECT_EQ(e.where().line, 3);
    EXPECT_NE(std::string(e.what()).find("instance 's/c?n=1000'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("array 'partial' (n / 256)"), std::string::npos) << e.what();
  }
}

TEST(verification, a_variant_without_verification_is_unverified_not_verified) {
  const verification none = verification::unverified();
  EXPECT_FALSE(none.checked);
  EXPECT_TRUE(verification::success().checked);
  EXPECT_FALSE(verification::failure("x").passed);
}

}  // namespace
}  // namespace counterguard
