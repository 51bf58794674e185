// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/formula.hpp"

#include <gtest/gtest.h>

#include "counterguard/core/error.hpp"
#include "model_test_support.hpp"

namespace counterguard {
namespace {

using test::contains;

const source_location here{"cases/t.yaml", 12, 7};

double evaluate(const std::string& text, const parameter_list& parameters = {}) {
  return formula::parse(text, here, "cases[0].expect.m.equals").evaluate(parameters);
}

TEST(formula, a_constant_evaluates_to_itself) {
  const formula value(4063232.0);
  EXPECT_TRUE(value.is_constant());
  EXPECT_EQ(value.text(), "4063232");
  EXPECT_DOUBLE_EQ(value.evaluate({}), 4063232.0);
}

TEST(formula, multiplication_binds_tighter_than_addition) {
  EXPECT_DOUBLE_EQ(evaluate("2 + 3 * 4"), 14.0);
}

TEST(formula, parentheses_group) {
  EXPECT_DOUBLE_EQ(evaluate("(2 + 3) * 4"), 20.0);
}

TEST(formula, division_is_not_integer_division) {
  EXPECT_DOUBLE_EQ(evaluate("7 / 2"), 3.5);
  EXPECT_DOUBLE_EQ(evaluate("n / 32", {{"n", 48}}), 1.5);
}

TEST(formula, power_and_functions_are_available) {
  EXPECT_DOUBLE_EQ(evaluate("2^10"), 1024.0);
  EXPECT_DOUBLE_EQ(evaluate("min(n, 64)", {{"n", 2048}}), 64.0);
}

TEST(formula, variables_are_case_parameters) {
  EXPECT_DOUBLE_EQ(evaluate("31 * n * n / 32", {{"n", 2048}, {"pad", 0}}), 4063232.0);
  EXPECT_DOUBLE_EQ(evaluate("alpha * 4", {{"alpha", 0.5}}), 2.0);
}

TEST(formula, an_expression_without_variables_is_constant) {
  const formula value = formula::parse("1024 * 4", here, "f");
  EXPECT_TRUE(value.is_constant());
  EXPECT_EQ(value.text(), "1024 * 4");
  EXPECT_DOUBLE_EQ(value.evaluate({}), 4096.0);
}

TEST(formula, an_expression_with_variables_is_not_constant) {
  EXPECT_FALSE(formula::parse("n * 4", here, "f").is_constant());
}

TEST(formula, keeps_where_it_was_written) {
  const formula value = formula::parse("n", here, "cases[0].launch.grid[0]");
  EXPECT_EQ(value.where().to_string(), "cases/t.yaml:12:7");
  EXPECT_EQ(value.field(), "cases[0].launch.grid[0]");
}

TEST(formula, a_syntax_error_is_an_input_error_at_parse_time) {
  try {
    (void)formula::parse("31 * n *", here, "cases[0].expect.m.equals");
    FAIL() << "expected an input_error";
  } catch (const input_error& failure) {
    EXPECT_TRUE(contains(failure.what(), "cases/t.yaml:12:7"));
    EXPECT_TRUE(contains(failure.what(), "cases[0].expect.m.equals"));
    EXPECT_TRUE(contains(failure.what(), "invalid formula '31 * n *'"));
  }
}

TEST(formula, an_empty_formula_is_an_input_error) {
  EXPECT_THROW((void)formula::parse("  ", here, "f"), input_error);
}

TEST(formula, an_unknown_variable_is_an_input_error_listing_numeric_parameters) {
  const formula value = formula::parse("m * 2", here, "cases[0].expect.m.equals");
  try {
    (void)value.evaluate({{"n", 4}, {"layout", "row"}, {"pad", 1}});
    FAIL() << "expected an input_error";
  } catch (const input_error& failure) {
    EXPECT_TRUE(contains(failure.what(), "cases/t.yaml:12:7"));
    EXPECT_TRUE(contains(failure.problem(), "'m'"));
    EXPECT_EQ(failure.valid(),
              "numeric parameters of this case: n, pad; a value is a number or a formula of them, e.g. 0 or "
              "\"n / 32\"");
  }
}

TEST(formula, a_lone_word_says_it_is_neither_a_number_nor_a_parameter) {
  const formula value = formula::parse("four", here, "cases[0].expect.global_load_requests");
  try {
    (void)value.evaluate({{"n", 4}});
    FAIL() << "expected an input_error";
  } catch (const input_error& failure) {
    EXPECT_EQ(failure.problem(), "'four' is neither a number nor a parameter");
    EXPECT_TRUE(contains(failure.valid(), "numeric parameters of this case: n"));
  }
}

TEST(formula, a_string_parameter_cannot_be_used_in_a_formula) {
  const formula value = formula::parse("layout * 2", here, "f");
  try {
    (void)value.evaluate({{"layout", "row"}});
    FAIL() << "expected an input_error";
  } catch (const input_error& failure) {
    EXPECT_TRUE(contains(failure.problem(), "string parameter"));
  }
}

}  // namespace
}  // namespace counterguard
