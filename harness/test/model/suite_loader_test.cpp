// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/suite_loader.hpp"

#include <gtest/gtest.h>

#include "model_test_support.hpp"

namespace counterguard {
namespace {

using test::contains;
using test::fixture_path;

class suite_loader : public test::model_test {};

const expectation& find_expectation(const case_spec& spec, const std::string& metric) {
  for (const auto& expected : spec.expectations) {
    if (expected.metric == metric)
      return expected;
  }
  throw std::out_of_range("no expectation for " + metric);
}

TEST_F(suite_loader, reads_the_suite_name_description_path_and_cases) {
  const suite s = load_suite(fixture_path("transpose.yaml"), kernels(), metrics());
  EXPECT_EQ(s.name, "transpose");
  EXPECT_EQ(s.description, "Matrix transpose through shared memory, with and without padding");
  EXPECT_EQ(s.path, fixture_path("transpose.yaml"));
  ASSERT_EQ(s.cases.size(), 3U);
  EXPECT_EQ(s.cases[0].name, "smem");
  EXPECT_EQ(s.cases[0].kernel, "transpose/smem");
  EXPECT_EQ(s.cases[2].name, "naive");
}

TEST_F(suite_loader, records_where_each_case_starts) {
  const suite s = load_suite(fixture_path("transpose.yaml"), kernels(), metrics());
  EXPECT_EQ(s.cases[1].where.file, fixture_path("transpose.yaml"));
  EXPECT_EQ(s.cases[1].where.line, 21);
  EXPECT_EQ(s.cases[1].where.column, 5);
}

TEST_F(suite_loader, fixed_parameters_are_the_suite_defaults_then_the_cases_own) {
  const suite s = load_suite(fixture_path("transpose.yaml"), kernels(), metrics());
  const parameter_list expected{{"n", 2048}, {"pad", 0}};
  EXPECT_EQ(s.cases[0].parameters, expected);
}

TEST_F(suite_loader, a_case_parameter_overrides_a_suite_default) {
  const suite s = load(R"yaml(suite: t
defaults: {parameters: {n: 64}}
cases:
  - {name: a, kernel: transpose/smem, parameters: {n: 128}}
)yaml");
  EXPECT_EQ(s.cases[0].parameters, (parameter_list{{"n", 128}}));
}

TEST_F(suite_loader, suite_default_parameters_apply_only_to_kernels_that_declare_them) {
  const suite s = load(R"yaml(suite: t
defaults: {parameters: {pad: 1, stride: 2}}
cases:
  - {name: a, kernel: transpose/smem}
  - {name: b, kernel: coalescing/vec_add}
)yaml");
  EXPECT_EQ(s.cases[0].parameters, (parameter_list{{"pad", 1}}));
  EXPECT_EQ(s.cases[1].parameters, (parameter_list{{"stride", 2}}));
}

TEST_F(suite_loader, axes_keep_their_declared_order_and_values) {
  const suite s = load_suite(fixture_path("transpose.yaml"), kernels(), metrics());
  const case_spec& padded = s.cases[1];
  ASSERT_EQ(padded.axes.size(), 2U);
  EXPECT_EQ(padded.axes[0].name, "pad");
  EXPECT_EQ(padded.axes[0].values, (std::vector<parameter_value>{1, 2}));
  EXPECT_EQ(padded.axes[1].name, "n");
  EXPECT_EQ(padded.axes[1].values, (std::vector<parameter_value>{1024, 2048, 4096}));
}

TEST_F(suite_loader, an_axis_replaces_a_suite_default_of_the_same_name) {
  const suite s = load_suite(fixture_path("transpose.yaml"), kernels(), metrics());
  EXPECT_EQ(find_parameter(s.cases[1].parameters, "n"), nullptr);
}

TEST_F(suite_loader, an_integer_for_a_real_parameter_is_stored_as_a_real) {
  const suite s = load("suite: t\ncases:\n  - {name: a, kernel: transpose/naive, parameters: {alpha: 2}}\n");
  EXPECT_EQ(s.cases[0].parameters, (parameter_list{{"alpha", 2.0}}));
}

TEST_F(suite_loader, a_string_parameter_takes_any_scalar_as_text) {
  const suite s =
      load("suite: t\ncases:\n  - {name: a, kernel: transpose/naive, parameters: {layout: 1.50}}\n");
  EXPECT_EQ(s.cases[0].parameters, (parameter_list{{"layout", "1.50"}}));
}

TEST_F(suite_loader, integers_may_be_written_in_hex) {
  const suite s = load("suite: t\ncases:\n  - {name: a, kernel: transpose/smem, parameters: {n: 0x400}}\n");
  EXPECT_EQ(s.cases[0].parameters, (parameter_list{{"n", 1024}}));
}

TEST_F(suite_loader, a_block_of_one_number_is_x_with_y_and_z_one) {
  const suite s = load_suite(fixture_path("transpose.yaml"), kernels(), metrics());
  ASSERT_TRUE(s.cases[1].launch.block.has_value());
  const auto& block = *s.cases[1].launch.block;
  EXPECT_EQ(block[0].text(), "256");
  EXPECT_EQ(block[1].text(), "1");
  EXPECT_EQ(block[2].text(), "1");
}

TEST_F(suite_loader, the_case_launch_fields_win_and_suite_defaults_fill_the_rest) {
  const suite s = load_suite(fixture_path("transpose.yaml"), kernels(), metrics());
  const launch_spec& launch = s.cases[0].launch;
  ASSERT_TRUE(launch.block.has_value());
  EXPECT_EQ((*launch.block)[0].text(), "32");  // from defaults
  EXPECT_EQ((*launch.block)[1].text(), "8");
  ASSERT_TRUE(launch.grid.has_value());
  EXPECT_EQ((*launch.grid)[1].text(), "n / 32");
  EXPECT_FALSE(launch.cluster.has_value());
  ASSERT_TRUE(launch.dynamic_shared_bytes.has_value());
  EXPECT_EQ(launch.dynamic_shared_bytes->text(), "32 * (32 + pad) * 4");
}

TEST_F(suite_loader, a_bare_scalar_expectation_means_equals) {
  const suite s = load_suite(fixture_path("transpose.yaml"), kernels(), metrics());
  const expectation& spill = find_expectation(s.cases[0], "spill_store_bytes");
  EXPECT_EQ(spill.kind, comparison::equals);
  EXPECT_TRUE(spill.value.is_constant());
  EXPECT_DOUBLE_EQ(spill.value.evaluate({}), 0.0);
}

TEST_F(suite_loader, expectations_keep_their_order_comparison_and_options) {
  const suite s = load_suite(fixture_path("transpose.yaml"), kernels(), metrics());
  const auto& expectations = s.cases[0].expectations;
  ASSERT_EQ(expectations.size(), 4U);
  EXPECT_EQ(expectations[0].metric, "shared_store_bank_conflicts");
  EXPECT_EQ(expectations[0].value.text(), "31 * n * n / 32");
  EXPECT_EQ(expectations[1].kind, comparison::between);
  EXPECT_EQ(expectations[1].upper.text(), "5");
  const expectation& raw = expectations[3];
  EXPECT_EQ(raw.metric, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  EXPECT_EQ(raw.kind, comparison::max);
  EXPECT_EQ(raw.declared_class, metric_class::exact);
  EXPECT_EQ(raw.tolerance, 0.01);
  EXPECT_EQ(raw.kernel, "counterguard::kernels::transpose::smem_tile<32, 32>");
  EXPECT_EQ(raw.where.line, 19);
}

TEST_F(suite_loader, options_default_to_unset) {
  const suite s = load_suite(fixture_path("transpose.yaml"), kernels(), metrics());
  const expectation& conflicts = s.cases[0].expectations[0];
  EXPECT_FALSE(conflicts.tolerance.has_value());
  EXPECT_FALSE(conflicts.declared_class.has_value());
  EXPECT_TRUE(conflicts.kernel.empty());
}

TEST_F(suite_loader, a_skip_reason_is_kept) {
  const suite s = load_suite(fixture_path("transpose.yaml"), kernels(), metrics());
  EXPECT_EQ(s.cases[2].skip_reason, "the naive variant is too slow for CI");
  EXPECT_FALSE(s.cases[0].skip_reason.has_value());
}

TEST_F(suite_loader, empty_optional_maps_are_allowed) {
  const suite s =
      load("suite: t\ncases:\n  - name: a\n    kernel: transpose/smem\n    parameters:\n    expect:\n");
  EXPECT_TRUE(s.cases[0].parameters.empty());
  EXPECT_TRUE(s.cases[0].expectations.empty());
}

TEST_F(suite_loader, load_suites_reads_a_directorys_yaml_files_in_name_order) {
  write("b.yaml", "suite: second\ncases: [{name: a, kernel: transpose/smem}]\n");
  write("a.yaml", "suite: first\ncases: [{name: a, kernel: transpose/smem}]\n");
  write("notes.txt", "not a suite");
  write("nested/c.yaml", "suite: nested\ncases: [{name: a, kernel: transpose/smem}]\n");
  const std::vector<suite> suites = load_suites({directory()}, kernels(), metrics());
  ASSERT_EQ(suites.size(), 2U);
  EXPECT_EQ(suites[0].name, "first");
  EXPECT_EQ(suites[1].name, "second");
}

TEST_F(suite_loader, load_suites_reads_files_and_directories_in_the_order_given) {
  const std::vector<suite> suites =
      load_suites({fixture_path("transpose.yaml"), fixture_path("")}, kernels(), metrics());
  ASSERT_EQ(suites.size(), 2U);  // transpose.yaml is loaded once although the directory holds it too
  EXPECT_EQ(suites[0].name, "transpose");
  EXPECT_EQ(suites[1].name, "coalescing");
}

TEST_F(suite_loader, measure_lists_metrics_measured_for_the_baselines_after_the_defaults) {
  const std::vector<case_instance> instances = expand(
      "suite: t\ndefaults:\n  measure: [registers_per_thread, spill_store_bytes]\ncases:\n"
      "  - name: a\n    select: {kernel: k}\n    measure: [global_load_requests, spill_store_bytes]\n"
      "  - name: b\n    kernel: transpose/smem\n");
  ASSERT_EQ(instances.size(), 2U);
  EXPECT_EQ(instances[0].measured_metrics,
            (std::vector<std::string>{"registers_per_thread", "spill_store_bytes", "global_load_requests"}));
  EXPECT_EQ(instances[1].measured_metrics,
            (std::vector<std::string>{"registers_per_thread", "spill_store_bytes"}));
  EXPECT_TRUE(instances[0].expectations.empty());
}

TEST_F(suite_loader, measure_names_an_unknown_metric_at_its_line_with_the_closest_ones) {
  const input_error e =
      load_error("suite: t\ncases:\n  - name: a\n    select: {kernel: k}\n    measure: [spill_stor_bytes]\n");
  EXPECT_EQ(e.where().line, 5);
  EXPECT_EQ(e.field(), "cases[0].measure[0]");
  EXPECT_TRUE(contains(e.what(), "unknown metric 'spill_stor_bytes'"));
  EXPECT_TRUE(contains(e.what(), "spill_store_bytes"));
}

TEST_F(suite_loader, measure_refuses_a_metric_listed_twice) {
  const input_error e = load_error(
      "suite: t\ndefaults:\n  measure: [registers_per_thread, registers_per_thread]\n"
      "cases:\n  - name: a\n    kernel: transpose/smem\n");
  EXPECT_EQ(e.field(), "defaults.measure[1]");
  EXPECT_TRUE(contains(e.what(), "listed twice"));
}

}  // namespace
}  // namespace counterguard
