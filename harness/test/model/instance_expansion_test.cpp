// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>

#include "model_test_support.hpp"

namespace counterguard {
namespace {

using test::contains;
using test::fixture_path;

class instance_expansion : public test::model_test {
 protected:
  std::vector<case_instance> transpose() {
    return expand_instances(load_suite(fixture_path("transpose.yaml"), kernels(), metrics()), kernels(),
                            metrics());
  }
};

std::vector<std::string> names_of(const std::vector<case_instance>& instances) {
  std::vector<std::string> names;
  for (const auto& instance : instances)
    names.push_back(instance.name);
  return names;
}

TEST_F(instance_expansion, a_case_without_axes_is_one_instance_named_suite_slash_case) {
  const auto instances = expand("suite: t\ncases:\n  - {name: a, kernel: transpose/smem}\n");
  ASSERT_EQ(instances.size(), 1U);
  EXPECT_EQ(instances[0].name, "t/a");
  EXPECT_EQ(instances[0].suite, "t");
  EXPECT_EQ(instances[0].case_name, "a");
  EXPECT_EQ(instances[0].kernel, "transpose/smem");
}

TEST_F(instance_expansion, every_instance_knows_where_its_case_is_defined) {
  const auto instances = expand(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem}\n  - name: b\n    kernel: transpose/smem\n"
      "    axes: {n: [64, 128]}\n");
  ASSERT_EQ(instances.size(), 3U);
  EXPECT_EQ(instances[0].where.line, 3);
  EXPECT_EQ(instances[1].where.line, 4);
  EXPECT_EQ(instances[2].where.line, 4);
  EXPECT_EQ(instances[1].where.file, instances[0].suite_path);
}

TEST_F(instance_expansion, axes_expand_to_their_cartesian_product_with_the_first_axis_slowest) {
  const auto instances = expand(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, axes: {pad: [0, 1], n: [64, 128, 256]}}\n");
  EXPECT_EQ(names_of(instances),
            (std::vector<std::string>{"t/a?pad=0,n=64", "t/a?pad=0,n=128", "t/a?pad=0,n=256",
                                      "t/a?pad=1,n=64", "t/a?pad=1,n=128", "t/a?pad=1,n=256"}));
}

TEST_F(instance_expansion, instance_names_list_axes_only_in_declared_order) {
  const auto instances = expand(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, parameters: {tile: 16}, axes: {n: [64], pad: "
      "[1]}}\n");
  EXPECT_EQ(names_of(instances), (std::vector<std::string>{"t/a?n=64,pad=1"}));
}

TEST_F(instance_expansion, cases_expand_in_file_order) {
  EXPECT_EQ(
      names_of(transpose()),
      (std::vector<std::string>{"transpose/smem", "transpose/smem_padded?pad=1,n=1024",
                                "transpose/smem_padded?pad=1,n=2048", "transpose/smem_padded?pad=1,n=4096",
                                "transpose/smem_padded?pad=2,n=1024", "transpose/smem_padded?pad=2,n=2048",
                                "transpose/smem_padded?pad=2,n=4096", "transpose/naive"}));
}

TEST_F(instance_expansion, real_axis_values_are_named_without_trailing_zeros) {
  const auto instances =
      expand("suite: t\ncases:\n  - {name: a, kernel: transpose/naive, axes: {alpha: [0.5, 2, 1.250]}}\n");
  EXPECT_EQ(names_of(instances),
            (std::vector<std::string>{"t/a?alpha=0.5", "t/a?alpha=2", "t/a?alpha=1.25"}));
}

TEST_F(instance_expansion, parameters_are_kernel_defaults_then_suite_defaults_then_case_then_axis_values) {
  const auto instances = expand(R"yaml(suite: t
defaults: {parameters: {n: 512, pad: 3}}
cases:
  - {name: a, kernel: transpose/smem, parameters: {pad: 1}, axes: {n: [64]}}
)yaml");
  ASSERT_EQ(instances.size(), 1U);
  EXPECT_EQ(instances[0].parameters, (parameter_list{{"n", 64}, {"pad", 1}, {"tile", 32}}));
}

TEST_F(instance_expansion, parameters_keep_the_kernels_declaration_order) {
  const auto instances =
      expand("suite: t\ncases:\n  - {name: a, kernel: transpose/naive, parameters: {layout: col, n: 8}}\n");
  EXPECT_EQ(instances[0].parameters, (parameter_list{{"n", 8}, {"alpha", 1.0}, {"layout", "col"}}));
}

TEST_F(instance_expansion, launch_formulas_are_evaluated_per_instance) {
  const auto instances = transpose();
  const resolved_launch& launch = instances[0].launch;  // n = 2048, pad = 0
  EXPECT_EQ(launch.block, (std::array<unsigned, 3>{32, 8, 1}));
  EXPECT_EQ(launch.grid, (std::array<unsigned, 3>{64, 64, 1}));
  EXPECT_EQ(launch.dynamic_shared_bytes, 4096U);
  EXPECT_FALSE(launch.has_cluster());
  EXPECT_EQ(instances[1].launch.grid, (std::array<unsigned, 3>{32, 32, 1}));  // n = 1024
  EXPECT_EQ(instances[1].launch.block, (std::array<unsigned, 3>{256, 1, 1}));
}

TEST_F(instance_expansion, an_unset_launch_leaves_the_choice_to_the_kernel) {
  const auto instances = expand("suite: t\ncases:\n  - {name: a, kernel: transpose/smem}\n");
  EXPECT_FALSE(instances[0].launch.has_block());
  EXPECT_FALSE(instances[0].launch.has_grid());
  EXPECT_EQ(instances[0].launch.dynamic_shared_bytes, 0U);
}

TEST_F(instance_expansion, cluster_dimensions_are_resolved) {
  const auto instances =
      expand("suite: t\ncases:\n  - {name: a, kernel: transpose/smem, launch: {cluster: [2, 1, 1]}}\n");
  EXPECT_EQ(instances[0].launch.cluster, (std::array<unsigned, 3>{2, 1, 1}));
}

TEST_F(instance_expansion, an_equals_formula_resolves_to_its_value_and_reads_with_double_equals) {
  const auto instances = transpose();
  const resolved_expectation& conflicts = instances[0].expectations[0];
  EXPECT_EQ(conflicts.metric, "shared_store_bank_conflicts");
  EXPECT_EQ(conflicts.kind, comparison::equals);
  EXPECT_DOUBLE_EQ(conflicts.lower, 4063232.0);
  EXPECT_DOUBLE_EQ(conflicts.upper, 4063232.0);
  EXPECT_EQ(conflicts.text, "== 4063232");
}

TEST_F(instance_expansion, between_reads_as_an_interval) {
  const auto instances = transpose();
  const resolved_expectation& sectors = instances[0].expectations[1];
  EXPECT_DOUBLE_EQ(sectors.lower, 4.0);
  EXPECT_DOUBLE_EQ(sectors.upper, 5.0);
  EXPECT_EQ(sectors.text, "in [4, 5]");
}

TEST_F(instance_expansion, max_bounds_from_above_and_min_from_below) {
  const auto instances = transpose();
  const resolved_expectation& raw = instances[0].expectations[3];
  EXPECT_EQ(raw.text, "<= 524288");
  EXPECT_DOUBLE_EQ(raw.upper, 524288.0);
  EXPECT_TRUE(std::isinf(raw.lower) && raw.lower < 0);
  const resolved_expectation& sectors = instances.back().expectations[0];
  EXPECT_EQ(sectors.text, ">= 8");
  EXPECT_DOUBLE_EQ(sectors.lower, 8.0);
  EXPECT_TRUE(std::isinf(sectors.upper) && sectors.upper > 0);
}

TEST_F(instance_expansion, divisions_keep_their_fraction) {
  const auto instances = expand(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, parameters: {n: 3}, expect: {instructions: "
      "{max: n / "
      "2}}}\n");
  EXPECT_DOUBLE_EQ(instances[0].expectations[0].upper, 1.5);
  EXPECT_EQ(instances[0].expectations[0].text, "<= 1.5");
}

TEST_F(instance_expansion, tolerance_class_and_kernel_carry_over) {
  const auto instances = transpose();
  const resolved_expectation& raw = instances[0].expectations[3];
  EXPECT_DOUBLE_EQ(raw.tolerance, 0.01);
  EXPECT_EQ(raw.cls, metric_class::exact);
  EXPECT_EQ(raw.kernel, "counterguard::kernels::transpose::smem_tile<32, 32>");
  EXPECT_EQ(raw.where.line, 19);
}

TEST_F(instance_expansion, the_class_comes_from_the_catalog_unless_declared) {
  const auto instances = expand(R"yaml(suite: t
cases:
  - name: a
    kernel: transpose/smem
    expect:
      spill_store_bytes: 0
      shared_store_bank_conflicts_hw: {max: 10}
      shared_store_bank_conflicts: {max: 10, class: noisy}
)yaml");
  const auto& expectations = instances[0].expectations;
  EXPECT_EQ(expectations[0].cls, metric_class::static_resource);
  EXPECT_EQ(expectations[1].cls, metric_class::noisy);
  EXPECT_EQ(expectations[2].cls, metric_class::noisy);
  EXPECT_DOUBLE_EQ(expectations[0].tolerance, 0.0);
}

TEST_F(instance_expansion, skip_reason_and_suite_path_carry_over) {
  const auto instances = transpose();
  EXPECT_EQ(instances.back().skip_reason, "the naive variant is too slow for CI");
  EXPECT_FALSE(instances[0].skip_reason.has_value());
  EXPECT_EQ(instances[0].suite_path, fixture_path("transpose.yaml"));
}

TEST_F(instance_expansion, an_unknown_variable_of_an_expectation_is_refused_as_the_suite_loads) {
  // It fails for every instance alike: reported with the file's other problems, naming no instance.
  const input_error failure = expand_error(R"yaml(suite: t
cases:
  - name: a
    kernel: transpose/smem
    axes: {pad: [1]}
    expect:
      shared_store_bank_conflicts: {equals: "m * 2"}
)yaml");
  EXPECT_TRUE(contains(failure.what(), suite_file() + ":7:45"));
  EXPECT_EQ(failure.field(), "cases[0].expect.shared_store_bank_conflicts.equals");
  EXPECT_TRUE(contains(failure.problem(), "uses 'm'"));
  EXPECT_TRUE(contains(failure.valid(), "numeric parameters of this case: n, pad, tile"));
}

TEST_F(instance_expansion, an_unknown_variable_of_a_launch_dimension_names_it_the_field_and_the_instance) {
  const input_error failure = expand_error(R"yaml(suite: t
cases:
  - name: a
    kernel: transpose/smem
    axes: {pad: [1]}
    launch: {grid: "m * 2"}
)yaml");
  EXPECT_TRUE(contains(failure.what(), suite_file() + ":6:20"));
  EXPECT_EQ(failure.field(), "cases[0].launch.grid");
  EXPECT_TRUE(contains(failure.problem(), "uses 'm'"));
  EXPECT_TRUE(contains(failure.problem(), "instance 't/a?pad=1'"));
  EXPECT_TRUE(contains(failure.valid(), "numeric parameters of this case: n, pad, tile"));
}

TEST_F(instance_expansion, a_launch_dimension_that_is_not_a_whole_number_is_refused) {
  const input_error failure = expand_error(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, parameters: {n: 100}, launch: {grid: \"n / "
      "32\"}}\n");
  EXPECT_EQ(failure.field(), "cases[0].launch.grid");
  EXPECT_TRUE(contains(failure.problem(), "'n / 32' evaluates to 3.125"));
  EXPECT_TRUE(contains(failure.valid(), "whole number"));
}

TEST_F(instance_expansion, a_zero_launch_dimension_is_refused) {
  const input_error failure = expand_error(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, parameters: {pad: 0}, launch: {block: [32, "
      "pad]}}\n");
  EXPECT_EQ(failure.field(), "cases[0].launch.block[1]");
}

TEST_F(instance_expansion, a_division_by_zero_is_refused) {
  const input_error failure = expand_error(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, parameters: {pad: 0}, expect: {instructions: "
      "{max: "
      "n / pad}}}\n");
  EXPECT_TRUE(contains(failure.problem(), "evaluates to inf"));
}

TEST_F(instance_expansion, between_bounds_that_cross_for_an_instance_are_refused) {
  const input_error failure = expand_error(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, axes: {pad: [1, 8]}, expect: {instructions: "
      "{between: [pad, 4]}}}\n");
  EXPECT_TRUE(contains(failure.problem(), "lower bound 8 is above upper bound 4"));
  EXPECT_TRUE(contains(failure.problem(), "t/a?pad=8"));
}

}  // namespace
}  // namespace counterguard
