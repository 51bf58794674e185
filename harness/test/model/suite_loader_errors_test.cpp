// SPDX-License-Identifier: Apache-2.0
// Every kind of mistake in a suite file is an input_error naming the file, line and column, the field, the
// problem and what would be valid.
#include <gtest/gtest.h>

#include "counterguard/core/input_errors.hpp"
#include "model_test_support.hpp"

namespace counterguard {
namespace {

using test::contains;

class suite_loader_errors : public test::model_test {
 protected:
  // "<dir>/t.yaml:3:5"
  std::string at(int line, int column) const {
    return suite_file() + ":" + std::to_string(line) + ":" + std::to_string(column);
  }
};

TEST_F(suite_loader_errors, a_missing_file_is_named) {
  const input_error failure =
      error_of([&] { (void)load_suite(directory() + "/absent.yaml", kernels(), metrics()); });
  EXPECT_TRUE(contains(failure.what(), directory() + "/absent.yaml"));
  EXPECT_TRUE(contains(failure.what(), "no such file"));
}

TEST_F(suite_loader_errors, a_directory_is_not_a_suite_file) {
  const input_error failure = error_of([&] { (void)load_suite(directory(), kernels(), metrics()); });
  EXPECT_TRUE(contains(failure.what(), "is a directory"));
}

TEST_F(suite_loader_errors, a_yaml_syntax_error_names_its_line_and_column) {
  const input_error failure = load_error("suite: t\ncases:\n  - name: a\n    kernel: [transpose/smem\n");
  EXPECT_EQ(failure.where().file, suite_file());
  EXPECT_GT(failure.where().line, 0);
  EXPECT_TRUE(contains(failure.what(), "YAML syntax error"));
}

TEST_F(suite_loader_errors, a_tab_indentation_is_a_syntax_error_not_a_crash) {
  const input_error failure = load_error("suite: t\ncases:\n\t- name: a\n");
  EXPECT_TRUE(contains(failure.what(), "YAML syntax error"));
}

TEST_F(suite_loader_errors, an_empty_file_says_what_a_suite_looks_like) {
  const input_error failure = load_error("");
  EXPECT_TRUE(contains(failure.what(), suite_file()));
  EXPECT_TRUE(contains(failure.what(), "empty"));
  EXPECT_TRUE(contains(failure.valid(), "'suite: <name>' and 'cases:'"));
}

TEST_F(suite_loader_errors, a_file_of_comments_only_is_empty) {
  EXPECT_TRUE(contains(load_error("# nothing here\n").what(), "empty"));
}

TEST_F(suite_loader_errors, a_scalar_document_is_not_a_suite) {
  const input_error failure = load_error("just text\n");
  EXPECT_TRUE(contains(failure.what(), at(1, 1)));
  EXPECT_TRUE(contains(failure.what(), "the document is a scalar ('just text'), not a map"));
}

TEST_F(suite_loader_errors, a_sequence_document_is_not_a_suite) {
  EXPECT_TRUE(contains(load_error("- a\n- b\n").what(), "the document is a sequence, not a map"));
}

TEST_F(suite_loader_errors, two_documents_in_one_file_are_refused) {
  const input_error failure = load_error("suite: a\ncases: []\n---\nsuite: b\n");
  EXPECT_TRUE(contains(failure.what(), "2 YAML documents"));
}

TEST_F(suite_loader_errors, an_unknown_top_level_key_lists_the_valid_keys) {
  const input_error failure = load_error("suite: t\ncasess: []\n");
  EXPECT_TRUE(contains(failure.what(), at(2, 1)));
  EXPECT_EQ(failure.field(), "casess");
  EXPECT_TRUE(contains(failure.what(), "unknown key 'casess'"));
  EXPECT_EQ(failure.valid(), "valid keys: suite, description, defaults, cases");
}

TEST_F(suite_loader_errors, an_unknown_case_key_lists_the_valid_keys) {
  const input_error failure = load_error("suite: t\ncases:\n  - name: a\n    kernal: transpose/smem\n");
  EXPECT_TRUE(contains(failure.what(), at(4, 5)));
  EXPECT_EQ(failure.field(), "cases[0].kernal");
  EXPECT_TRUE(contains(failure.valid(), "name, kernel, description, parameters, axes, launch, skip, expect"));
}

TEST_F(suite_loader_errors, an_unknown_expectation_key_lists_the_valid_keys) {
  const input_error failure = load_error(R"yaml(suite: t
cases:
  - name: a
    kernel: transpose/smem
    expect:
      spill_store_bytes: {equal: 0}
)yaml");
  EXPECT_TRUE(contains(failure.what(), at(6, 27)));
  EXPECT_EQ(failure.field(), "cases[0].expect.spill_store_bytes.equal");
  EXPECT_TRUE(contains(failure.valid(), "equals, max, min, between, tolerance, class, kernel"));
}

TEST_F(suite_loader_errors, an_unknown_launch_key_lists_the_valid_keys) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - {name: a, kernel: transpose/smem, launch: {threads: 256}}\n");
  EXPECT_EQ(failure.field(), "cases[0].launch.threads");
  EXPECT_TRUE(contains(failure.valid(), "block, grid, cluster, dynamic_shared_bytes"));
}

TEST_F(suite_loader_errors, a_duplicate_key_is_refused) {
  const input_error failure = load_error("suite: t\nsuite: u\ncases: []\n");
  EXPECT_TRUE(contains(failure.what(), at(2, 1)));
  EXPECT_TRUE(contains(failure.what(), "duplicate key 'suite'"));
  EXPECT_TRUE(contains(failure.valid(), "line 1"));
}

TEST_F(suite_loader_errors, cases_must_be_a_sequence) {
  const input_error failure = load_error("suite: t\ncases: {a: 1}\n");
  EXPECT_TRUE(contains(failure.what(), at(2, 8)));
  EXPECT_EQ(failure.field(), "cases");
  EXPECT_TRUE(contains(failure.what(), "expected a sequence"));
}

TEST_F(suite_loader_errors, a_case_that_is_a_sequence_is_refused) {
  const input_error failure = load_error("suite: t\ncases:\n  - [a, b]\n");
  EXPECT_TRUE(contains(failure.what(), at(3, 5)));
  EXPECT_EQ(failure.field(), "cases[0]");
  EXPECT_TRUE(contains(failure.what(), "a case must be a map, got a sequence"));
}

TEST_F(suite_loader_errors, a_null_case_is_refused) {
  EXPECT_TRUE(contains(load_error("suite: t\ncases:\n  -\n").what(), "a case must be a map"));
}

TEST_F(suite_loader_errors, a_suite_without_cases_is_refused) {
  const input_error failure = load_error("suite: t\ncases: []\n");
  EXPECT_TRUE(contains(failure.what(), "the suite has no cases"));
}

TEST_F(suite_loader_errors, parameters_must_be_a_map) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - {name: a, kernel: transpose/smem, parameters: [1, 2]}\n");
  EXPECT_EQ(failure.field(), "cases[0].parameters");
  EXPECT_TRUE(contains(failure.what(), "expected a map"));
}

TEST_F(suite_loader_errors, a_case_name_must_be_a_scalar) {
  const input_error failure = load_error("suite: t\ncases:\n  - {name: [a], kernel: transpose/smem}\n");
  EXPECT_EQ(failure.field(), "cases[0].name");
  EXPECT_TRUE(contains(failure.what(), "expected a case name, got a sequence"));
}

TEST_F(suite_loader_errors, a_missing_suite_name_is_named) {
  const input_error failure = load_error("cases: []\n");
  EXPECT_EQ(failure.field(), "suite");
  EXPECT_TRUE(contains(failure.what(), "missing required field 'suite'"));
}

TEST_F(suite_loader_errors, a_missing_case_name_points_at_the_case) {
  const input_error failure = load_error("suite: t\ncases:\n  - kernel: transpose/smem\n");
  EXPECT_TRUE(contains(failure.what(), at(3, 5)));
  EXPECT_EQ(failure.field(), "cases[0].name");
  EXPECT_TRUE(contains(failure.what(), "missing required field 'name'"));
}

TEST_F(suite_loader_errors, a_missing_kernel_is_named) {
  const input_error failure = load_error("suite: t\ncases:\n  - name: a\n");
  EXPECT_EQ(failure.field(), "cases[0].kernel");
  EXPECT_TRUE(contains(failure.what(), "missing required field 'kernel'"));
}

TEST_F(suite_loader_errors, a_case_name_outside_the_charset_is_refused) {
  const input_error failure = load_error("suite: t\ncases:\n  - {name: a b, kernel: transpose/smem}\n");
  EXPECT_TRUE(contains(failure.what(), "invalid case name 'a b'"));
  EXPECT_TRUE(contains(failure.valid(), "letters, digits"));
}

TEST_F(suite_loader_errors, an_unknown_kernel_suggests_the_closest_registered_names) {
  const input_error failure = load_error("suite: t\ncases:\n  - name: a\n    kernel: transpose/smen\n");
  EXPECT_TRUE(contains(failure.what(), at(4, 13)));
  EXPECT_EQ(failure.field(), "cases[0].kernel");
  EXPECT_TRUE(contains(failure.what(), "unknown kernel 'transpose/smen'"));
  EXPECT_TRUE(contains(failure.valid(), "did you mean 'transpose/smem'"));
  EXPECT_TRUE(contains(
      failure.valid(),
      "registered kernels: 'checked/tile', 'coalescing/vec_add', 'transpose/naive', 'transpose/smem'"));
}

TEST_F(suite_loader_errors, an_unknown_kernel_parameter_suggests_the_closest_and_lists_them_all) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - name: a\n    kernel: transpose/smem\n    parameters: {padd: 1}\n");
  EXPECT_TRUE(contains(failure.what(), at(5, 18)));
  EXPECT_EQ(failure.field(), "cases[0].parameters.padd");
  EXPECT_TRUE(contains(failure.what(), "kernel 'transpose/smem' has no parameter 'padd'"));
  EXPECT_TRUE(contains(failure.valid(), "did you mean 'pad'?"));
  EXPECT_TRUE(contains(failure.valid(), "n (integer), pad (integer), tile (integer)"));
}

TEST_F(suite_loader_errors, a_real_for_an_integer_parameter_is_a_type_mismatch) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - name: a\n    kernel: transpose/smem\n    parameters: {n: 1.5}\n");
  EXPECT_TRUE(contains(failure.what(), at(5, 21)));
  EXPECT_EQ(failure.field(), "cases[0].parameters.n");
  EXPECT_TRUE(contains(failure.problem(), "declares parameter 'n' as an integer, got number '1.5'"));
  EXPECT_TRUE(contains(failure.valid(), "whole number such as 2048"));
}

TEST_F(suite_loader_errors, a_quoted_number_for_an_integer_parameter_is_a_string) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - {name: a, kernel: transpose/smem, parameters: {n: \"2048\"}}\n");
  EXPECT_TRUE(contains(failure.problem(), "as an integer, got string '2048'"));
}

TEST_F(suite_loader_errors, a_string_for_a_real_parameter_is_a_type_mismatch) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - {name: a, kernel: transpose/naive, parameters: {alpha: half}}\n");
  EXPECT_TRUE(contains(failure.problem(), "declares parameter 'alpha' as a number, got string 'half'"));
}

TEST_F(suite_loader_errors, a_suite_default_of_the_wrong_type_is_reported_at_the_default) {
  const input_error failure = load_error(
      "suite: t\ndefaults:\n  parameters: {n: big}\ncases:\n  - {name: a, kernel: transpose/smem}\n");
  EXPECT_TRUE(contains(failure.what(), at(3, 19)));
  EXPECT_EQ(failure.field(), "defaults.parameters.n");
}

TEST_F(suite_loader_errors, a_suite_default_no_kernel_declares_is_refused) {
  const input_error failure = load_error(
      "suite: t\ndefaults:\n  parameters: {strid: 2}\ncases:\n  - {name: a, kernel: coalescing/vec_add}\n");
  EXPECT_TRUE(contains(failure.what(), at(3, 16)));
  EXPECT_EQ(failure.field(), "defaults.parameters.strid");
  EXPECT_TRUE(contains(failure.valid(), "did you mean 'stride'?"));
}

TEST_F(suite_loader_errors, an_integer_too_large_for_64_bits_is_refused) {
  const input_error failure = load_error(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, parameters: {n: 99999999999999999999}}\n");
  EXPECT_TRUE(contains(failure.problem(), "out of range"));
}

TEST_F(suite_loader_errors, an_unknown_metric_suggests_the_closest_aliases) {
  const input_error failure = load_error(R"yaml(suite: t
cases:
  - name: a
    kernel: transpose/smem
    expect:
      shared_store_bank_conflict: 0
)yaml");
  EXPECT_TRUE(contains(failure.what(), at(6, 7)));
  EXPECT_EQ(failure.field(), "cases[0].expect.shared_store_bank_conflict");
  EXPECT_TRUE(contains(failure.what(), "unknown metric 'shared_store_bank_conflict'"));
  EXPECT_TRUE(contains(failure.valid(), "did you mean 'shared_store_bank_conflicts'"));
}

TEST_F(suite_loader_errors, an_unknown_metric_far_from_every_alias_suggests_nothing) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - {name: a, kernel: transpose/smem, expect: {x: 0}}\n");
  EXPECT_FALSE(contains(failure.valid(), "did you mean"));
  EXPECT_TRUE(contains(failure.valid(), "a raw CUPTI name such as"));
}

TEST_F(suite_loader_errors, ncus_launch_and_device_attribute_names_are_metrics) {
  const suite s = load(R"yaml(suite: t
cases:
  - name: a
    kernel: transpose/smem
    expect:
      launch__registers_per_thread: {max: 64}
      device__attribute_max_threads_per_block: {min: 256}
)yaml");
  ASSERT_EQ(s.cases.size(), 1U);
}

TEST_F(suite_loader_errors, an_ncu_launch_name_counterguard_does_not_report_suggests_the_closest) {
  const input_error failure = load_error(R"yaml(suite: t
cases:
  - name: a
    kernel: transpose/smem
    expect:
      launch__registers_per_threads: 0
)yaml");
  EXPECT_TRUE(contains(failure.what(), "unknown metric 'launch__registers_per_threads'"));
  EXPECT_TRUE(contains(failure.valid(), "did you mean 'launch__registers_per_thread'"));
}

TEST_F(suite_loader_errors, a_duplicate_case_name_points_at_the_second_and_names_the_first) {
  const input_error failure = load_error(R"yaml(suite: t
cases:
  - name: a
    kernel: transpose/smem
  - name: a
    kernel: transpose/naive
)yaml");
  EXPECT_TRUE(contains(failure.what(), at(5, 11)));
  EXPECT_EQ(failure.field(), "cases[1].name");
  EXPECT_TRUE(contains(failure.what(), "duplicate case name 'a'"));
  EXPECT_TRUE(contains(failure.valid(), "line 3"));
}

TEST_F(suite_loader_errors, an_empty_axis_is_refused) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - name: a\n    kernel: transpose/smem\n    axes: {n: []}\n");
  EXPECT_TRUE(contains(failure.what(), at(5, 15)));
  EXPECT_EQ(failure.field(), "cases[0].axes.n");
  EXPECT_TRUE(contains(failure.what(), "axis 'n' has no values"));
}

TEST_F(suite_loader_errors, an_axis_must_be_a_sequence) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - {name: a, kernel: transpose/smem, axes: {n: 1024}}\n");
  EXPECT_EQ(failure.field(), "cases[0].axes.n");
  EXPECT_TRUE(contains(failure.what(), "expected a sequence"));
}

TEST_F(suite_loader_errors, an_axis_that_is_also_a_fixed_parameter_is_refused) {
  const input_error failure = load_error(R"yaml(suite: t
cases:
  - name: a
    kernel: transpose/smem
    parameters: {n: 1024}
    axes: {n: [1024, 2048]}
)yaml");
  EXPECT_TRUE(contains(failure.what(), at(6, 12)));
  EXPECT_EQ(failure.field(), "cases[0].axes.n");
  EXPECT_TRUE(contains(failure.what(), "'n' is both an axis and a fixed parameter"));
}

TEST_F(suite_loader_errors, an_axis_value_given_twice_is_refused) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - {name: a, kernel: transpose/smem, axes: {pad: [0, 1, 0]}}\n");
  EXPECT_EQ(failure.field(), "cases[0].axes.pad[2]");
  EXPECT_TRUE(contains(failure.what(), "value 0 appears twice"));
}

TEST_F(suite_loader_errors, an_axis_value_of_the_wrong_type_names_its_index) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - {name: a, kernel: transpose/smem, axes: {pad: [0, one]}}\n");
  EXPECT_EQ(failure.field(), "cases[0].axes.pad[1]");
}

TEST_F(suite_loader_errors, a_bad_formula_is_refused_at_load_time) {
  const input_error failure = load_error(R"yaml(suite: t
cases:
  - name: a
    kernel: transpose/smem
    expect:
      shared_store_bank_conflicts: {equals: "31 * n *"}
)yaml");
  EXPECT_TRUE(contains(failure.what(), at(6, 45)));
  EXPECT_EQ(failure.field(), "cases[0].expect.shared_store_bank_conflicts.equals");
  EXPECT_TRUE(contains(failure.what(), "invalid formula '31 * n *'"));
}

TEST_F(suite_loader_errors, a_bad_launch_formula_names_the_dimension) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - {name: a, kernel: transpose/smem, launch: {grid: [\"n /\", 1]}}\n");
  EXPECT_EQ(failure.field(), "cases[0].launch.grid[0]");
}

TEST_F(suite_loader_errors, more_than_three_launch_dimensions_are_refused) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - {name: a, kernel: transpose/smem, launch: {block: [1, 2, 3, 4]}}\n");
  EXPECT_EQ(failure.field(), "cases[0].launch.block");
  EXPECT_TRUE(contains(failure.what(), "expected 1 to 3 dimensions, got 4"));
}

TEST_F(suite_loader_errors, two_comparisons_in_one_expectation_are_refused) {
  const input_error failure = load_error(R"yaml(suite: t
cases:
  - name: a
    kernel: transpose/smem
    expect:
      spill_store_bytes: {equals: 0, max: 4}
)yaml");
  EXPECT_TRUE(contains(failure.what(), at(6, 38)));
  EXPECT_EQ(failure.field(), "cases[0].expect.spill_store_bytes.max");
  EXPECT_TRUE(contains(failure.what(), "both 'equals' and 'max' are given"));
  EXPECT_TRUE(contains(failure.valid(), "exactly one of equals, max, min or between"));
}

TEST_F(suite_loader_errors, an_expectation_without_a_comparison_is_refused) {
  const input_error failure = load_error(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, expect: {spill_store_bytes: {tolerance: "
      "0.1}}}\n");
  EXPECT_TRUE(contains(failure.what(), "no comparison for metric 'spill_store_bytes'"));
}

TEST_F(suite_loader_errors, between_with_one_value_is_refused) {
  const input_error failure = load_error(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, expect: {spill_store_bytes: {between: "
      "[4]}}}\n");
  EXPECT_EQ(failure.field(), "cases[0].expect.spill_store_bytes.between");
  EXPECT_TRUE(contains(failure.what(), "between needs exactly 2 values, got 1 value"));
  EXPECT_TRUE(contains(failure.valid(), "[lower, upper]"));
}

TEST_F(suite_loader_errors, between_with_three_values_is_refused) {
  const input_error failure = load_error(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, expect: {spill_store_bytes: {between: [1, 2, "
      "3]}}}\n");
  EXPECT_TRUE(contains(failure.what(), "got 3 values"));
}

TEST_F(suite_loader_errors, between_with_a_lower_bound_above_the_upper_is_refused) {
  const input_error failure = load_error(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, expect: {spill_store_bytes: {between: [5, "
      "4]}}}\n");
  EXPECT_TRUE(contains(failure.what(), "lower bound 5 is above upper bound 4"));
}

TEST_F(suite_loader_errors, a_negative_tolerance_is_refused) {
  const input_error failure = load_error(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, expect: {spill_store_bytes: {max: 0, "
      "tolerance: -1}}}\n");
  EXPECT_EQ(failure.field(), "cases[0].expect.spill_store_bytes.tolerance");
  EXPECT_TRUE(contains(failure.what(), "tolerance must be a number >= 0"));
}

TEST_F(suite_loader_errors, an_unknown_metric_class_lists_the_classes) {
  const input_error failure = load_error(
      "suite: t\ncases:\n  - {name: a, kernel: transpose/smem, expect: {spill_store_bytes: {max: 0, class: "
      "loud}}}\n");
  EXPECT_EQ(failure.field(), "cases[0].expect.spill_store_bytes.class");
  EXPECT_EQ(failure.valid(), "valid classes: static, exact, noisy");
}

TEST_F(suite_loader_errors, an_empty_skip_reason_is_refused) {
  const input_error failure =
      load_error("suite: t\ncases:\n  - {name: a, kernel: transpose/smem, skip: \"\"}\n");
  EXPECT_EQ(failure.field(), "cases[0].skip");
}

TEST_F(suite_loader_errors, load_suites_names_a_path_that_does_not_exist) {
  const input_error failure =
      error_of([&] { (void)load_suites({directory() + "/nowhere"}, kernels(), metrics()); });
  EXPECT_TRUE(contains(failure.what(), directory() + "/nowhere: no such file or directory"));
}

TEST_F(suite_loader_errors, load_suites_refuses_a_directory_without_suites) {
  write("empty/readme.txt", "");
  const input_error failure =
      error_of([&] { (void)load_suites({directory() + "/empty"}, kernels(), metrics()); });
  EXPECT_TRUE(contains(failure.what(), "holds no *.yaml files"));
}

TEST_F(suite_loader_errors, load_suites_refuses_two_files_with_the_same_suite_name) {
  write("a.yaml", "suite: same\ncases: [{name: a, kernel: transpose/smem}]\n");
  write("b.yaml", "suite: same\ncases: [{name: a, kernel: transpose/smem}]\n");
  const input_error failure = error_of([&] { (void)load_suites({directory()}, kernels(), metrics()); });
  EXPECT_TRUE(contains(failure.what(), directory() + "/b.yaml"));
  EXPECT_TRUE(contains(failure.what(), "suite name 'same' is also used by " + directory() + "/a.yaml"));
}

// The problems of independent parts of a file, each as it would be reported alone.
std::vector<std::string> fields_of(const input_error_list& errors) {
  std::vector<std::string> fields;
  for (const input_error& error : errors.errors())
    fields.push_back(error.field());
  return fields;
}

TEST_F(suite_loader_errors, every_case_and_every_expectation_reports_its_own_problem) {
  try {
    (void)load(R"yaml(suite: t
cases:
  - name: a
    kernel: transpose/smem
    expect:
      shared_store_bank_conflict: 0
      spill_store_bytes: {equals: 0, tolerance: -1}
  - name: b
    kernel: transpose/nope
)yaml");
    FAIL() << "expected an input_error_list";
  } catch (const input_error_list& errors) {
    EXPECT_EQ(errors.total(), 3U);
    EXPECT_EQ(fields_of(errors),
              (std::vector<std::string>{"cases[0].expect.shared_store_bank_conflict",
                                        "cases[0].expect.spill_store_bytes.tolerance", "cases[1].kernel"}));
    EXPECT_TRUE(contains(errors.what(), at(6, 7))) << errors.what();
    EXPECT_TRUE(contains(errors.what(), at(9, 13))) << errors.what();
  }
}

TEST_F(suite_loader_errors, a_bad_default_that_several_cases_use_is_one_problem) {
  const input_error failure = load_error(R"yaml(suite: t
defaults:
  parameters: {n: 1.5}
cases:
  - {name: a, kernel: transpose/smem}
  - {name: b, kernel: transpose/smem}
)yaml");
  EXPECT_EQ(failure.field(), "defaults.parameters.n");
  EXPECT_FALSE(contains(failure.what(), "\n")) << failure.what();
}

}  // namespace
}  // namespace counterguard
