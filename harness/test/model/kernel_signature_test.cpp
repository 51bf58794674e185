// SPDX-License-Identifier: Apache-2.0
// Parameter ranges and requirements a kernel declares once at registration, checked when a suite loads.
#include "counterguard/model/kernel_signature.hpp"

#include "model_test_support.hpp"

namespace counterguard::test {
namespace {

TEST(value_range, describes_what_it_allows) {
  EXPECT_EQ(range(32, 8192).multiple_of(32).describe(), "a multiple of 32 in [32, 8192]");
  EXPECT_EQ(at_least(1).describe(), "at least 1");
  EXPECT_EQ(one_of({"a", "b"}).describe(), "one of 'a', 'b'");
  EXPECT_TRUE(value_range{}.is_unconstrained());
}

TEST(value_range, names_the_violated_bound) {
  const value_range allowed = range(32, 8192).multiple_of(32);
  EXPECT_EQ(allowed.violation(std::int64_t{2048}), "");
  EXPECT_EQ(allowed.violation(std::int64_t{16}), "16 is below the minimum 32");
  EXPECT_EQ(allowed.violation(std::int64_t{8224}), "8224 is above the maximum 8192");
  EXPECT_EQ(allowed.violation(std::int64_t{2050}), "2050 is not a multiple of 32");
  EXPECT_EQ(one_of({"row_major"}).violation("diagonal"), "'diagonal' is not one of 'row_major'");
}

class declared_ranges : public model_test {};

TEST_F(declared_ranges, a_parameter_outside_its_range_is_rejected_on_load_at_its_line) {
  const input_error e = load_error(
      "suite: t\n"
      "cases:\n"
      "  - name: c\n"
      "    kernel: checked/tile\n"
      "    parameters: {n: 2050}\n"
      "    expect: {spill_store_bytes: 0}\n");
  EXPECT_EQ(e.where().line, 5);
  EXPECT_EQ(e.field(), "cases[0].parameters.n");
  EXPECT_TRUE(contains(e.problem(), "2050 is not a multiple of 32"));
  EXPECT_TRUE(contains(e.valid(), "a multiple of 32 in [32, 8192]"));
  EXPECT_EQ(e.code(), exit_code::invalid_input);
}

TEST_F(declared_ranges, axis_values_and_suite_defaults_are_checked_too) {
  const input_error axis = load_error(
      "suite: t\n"
      "cases:\n"
      "  - name: c\n"
      "    kernel: checked/tile\n"
      "    axes: {pad: [0, 1, 33]}\n"
      "    expect: {spill_store_bytes: 0}\n");
  EXPECT_EQ(axis.field(), "cases[0].axes.pad[2]");
  EXPECT_TRUE(contains(axis.problem(), "33 is above the maximum 32"));

  const input_error defaults = load_error(
      "suite: t\n"
      "defaults: {parameters: {layout: diagonal}}\n"
      "cases:\n"
      "  - name: c\n"
      "    kernel: checked/tile\n"
      "    expect: {spill_store_bytes: 0}\n");
  EXPECT_EQ(defaults.where().line, 2);
  EXPECT_TRUE(contains(defaults.problem(), "'diagonal' is not one of 'row_major', 'column_major'"));
  EXPECT_EQ(defaults.field(), "defaults.parameters.layout");
}

TEST_F(declared_ranges, a_block_size_the_kernel_does_not_take_is_rejected_at_the_launch) {
  const input_error e = expand_error(
      "suite: t\n"
      "cases:\n"
      "  - name: c\n"
      "    kernel: checked/tile\n"
      "    launch: {block: [48, 8]}\n"
      "    expect: {spill_store_bytes: 0}\n");
  EXPECT_EQ(e.where().line, 5);
  EXPECT_EQ(e.field(), "cases[0].launch.block");
  EXPECT_TRUE(contains(e.problem(), "48 is not a multiple of 32"));
}

TEST_F(declared_ranges, a_broken_requirement_names_the_instance_and_the_case) {
  const input_error e = expand_error(
      "suite: t\n"
      "cases:\n"
      "  - name: c\n"
      "    kernel: checked/tile\n"
      "    parameters: {tile: 48}\n"
      "    axes: {n: [96, 128]}\n"
      "    expect: {spill_store_bytes: 0}\n");
  EXPECT_EQ(e.where().line, 3);
  EXPECT_TRUE(contains(e.problem(), "instance 't/c?n=128'"));
  EXPECT_TRUE(contains(e.problem(), "n is a multiple of tile"));
}

TEST_F(declared_ranges, values_inside_the_range_expand) {
  const auto instances = expand(
      "suite: t\n"
      "cases:\n"
      "  - name: c\n"
      "    kernel: checked/tile\n"
      "    axes: {n: [32, 8192], pad: [0, 32]}\n"
      "    expect: {spill_store_bytes: 0}\n");
  EXPECT_EQ(instances.size(), 4U);
}

}  // namespace
}  // namespace counterguard::test
