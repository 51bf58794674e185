// SPDX-License-Identifier: Apache-2.0
#include "counterguard/registry/kernel_registry.hpp"

#include <gtest/gtest.h>

#include "counterguard/core/error.hpp"
#include "counterguard/registry/verify.hpp"

namespace counterguard {
namespace {

class constant_run : public kernel_run {
 public:
  explicit constant_run(std::int64_t n) : m_n(n) {}
  void launch(cudaStream_t /*stream*/) override {}
  verification verify() override {
    return m_n > 0 ? verification::success() : verification::failure("n <= 0");
  }

 private:
  std::int64_t m_n;
};

TEST(kernel_registry, finds_a_variant_by_name_with_its_declared_parameters) {
  kernel_registry registry;
  registry.add("topic/variant").launches("ns::kernel").parameter("n", std::int64_t{64}, "elements");
  const kernel_definition* found = registry.find("topic/variant");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->device_functions().at(0), "ns::kernel");
  ASSERT_NE(found->find_parameter("n"), nullptr);
  EXPECT_EQ(found->find_parameter("n")->default_value.as_integer(), 64);
  EXPECT_EQ(registry.find("topic/other"), nullptr);
}

TEST(kernel_registry, refuses_a_second_variant_of_the_same_name) {
  kernel_registry registry;
  registry.add("a/b");
  EXPECT_THROW(registry.add("a/b"), registration_error);
}

TEST(kernel_registry, refuses_a_parameter_declared_twice) {
  kernel_registry registry;
  auto& definition = registry.add("a/b").parameter("n", 1);
  EXPECT_THROW(definition.parameter("n", 2), registration_error);
}

TEST(kernel_registry, creates_runs_through_the_factory_with_the_case_arguments) {
  kernel_registry registry;
  registry.add("a/b").parameter("n", 1).factory(
      [](const kernel_arguments& a) { return std::make_unique<constant_run>(a.integer("n")); });
  const auto run = registry.find("a/b")->create(kernel_arguments({{"n", parameter_value(0)}}, {}));
  EXPECT_FALSE(run->verify().passed);
}

TEST(kernel_registry, a_variant_without_factory_cannot_be_created) {
  kernel_registry registry;
  registry.add("a/b");
  EXPECT_THROW(static_cast<void>(registry.find("a/b")->create(kernel_arguments({}, {}))), registration_error);
}

TEST(kernel_registry, a_default_outside_the_declared_range_is_a_registration_error) {
  kernel_registry registry;
  EXPECT_THROW(registry.add("a/b").parameter("n", 100, "", range(1, 10)), registration_error);
}

TEST(kernel_registry, signatures_carry_ranges_block_sizes_and_requirements_to_the_case_model) {
  kernel_registry registry;
  registry.add("a/b")
      .parameter("n", std::int64_t{64}, "", range(32, 1024).multiple_of(32))
      .block_size(range(32, 256))
      .require("n is a multiple of the block size",
               [](const kernel_arguments& a) { return a.integer("n") % a.block_x(32) == 0; });
  const kernel_signature* signature = registry.find_signature("a/b");
  ASSERT_NE(signature, nullptr);
  EXPECT_EQ(signature->find_parameter("n")->allowed.describe(), "a multiple of 32 in [32, 1024]");
  EXPECT_EQ(signature->block_size.describe(), "in [32, 256]");
  ASSERT_EQ(signature->requirements.size(), 1U);
  resolved_launch launch;
  launch.block = {64, 1, 1};
  EXPECT_TRUE(signature->requirements[0].holds({{"n", std::int64_t{128}}}, launch));
  EXPECT_FALSE(signature->requirements[0].holds({{"n", std::int64_t{96}}}, launch));
  EXPECT_EQ(registry.find_signature("x/y"), nullptr);
}

TEST(kernel_arguments, name_the_parameter_that_is_missing_or_of_another_type) {
  const kernel_arguments arguments({{"n", parameter_value(4)}, {"layout", parameter_value("soa")}}, {});
  EXPECT_EQ(arguments.integer("n"), 4);
  EXPECT_EQ(arguments.text("layout"), "soa");
  EXPECT_THROW(static_cast<void>(arguments.integer("layout")), registration_error);
  EXPECT_THROW(static_cast<void>(arguments.integer("m")), registration_error);
}

TEST(compare_with_reference, reports_the_first_mismatch_and_the_count) {
  const verification v = compare_with_reference<float>("y", {1, 2, 9, 9}, {1, 2, 3, 4});
  EXPECT_FALSE(v.passed);
  EXPECT_NE(v.message.find("y[2] = 9, expected 3 (2 of 4 elements differ)"), std::string::npos) << v.message;
}

TEST(compare_with_reference, accepts_differences_within_a_relative_tolerance) {
  EXPECT_TRUE(compare_with_reference<double>("y", {100.001}, {100.0}, 1e-4).passed);
  EXPECT_FALSE(compare_with_reference<double>("y", {100.1}, {100.0}, 1e-4).passed);
}

TEST(compare_with_reference, never_accepts_nan) {
  EXPECT_FALSE(compare_with_reference<float>("y", {std::nanf("")}, {1.0F}, 0.5).passed);
}

}  // namespace
}  // namespace counterguard
