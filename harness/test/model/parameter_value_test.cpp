// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/parameter_value.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

TEST(parameter_value, integers_print_without_decimals) {
  EXPECT_EQ(parameter_value(2048).to_string(), "2048");
}

TEST(parameter_value, negative_integers_keep_their_sign) {
  EXPECT_EQ(parameter_value(std::int64_t{-3}).to_string(), "-3");
}

TEST(parameter_value, reals_print_without_trailing_zeros) {
  EXPECT_EQ(parameter_value(0.5).to_string(), "0.5");
  EXPECT_EQ(parameter_value(1.0).to_string(), "1");
  EXPECT_EQ(parameter_value(1.25e-5).to_string(), "1.25e-05");
}

TEST(parameter_value, strings_print_as_they_are) {
  EXPECT_EQ(parameter_value("row_major").to_string(), "row_major");
}

TEST(parameter_value, type_names_are_integer_number_and_string) {
  EXPECT_STREQ(parameter_value(1).type_name(), "integer");
  EXPECT_STREQ(parameter_value(1.5).type_name(), "number");
  EXPECT_STREQ(parameter_value("x").type_name(), "string");
}

TEST(parameter_value, integers_read_as_doubles) {
  EXPECT_DOUBLE_EQ(parameter_value(7).as_double(), 7.0);
}

TEST(parameter_value, reading_the_wrong_type_is_an_internal_error) {
  EXPECT_THROW((void)parameter_value(1.5).as_integer(), internal_error);
  EXPECT_THROW((void)parameter_value("x").as_double(), internal_error);
  EXPECT_THROW((void)parameter_value(1).as_string(), internal_error);
}

TEST(parameter_value, an_integer_and_a_real_of_the_same_value_differ) {
  EXPECT_NE(parameter_value(1), parameter_value(1.0));
  EXPECT_EQ(parameter_value(1), parameter_value(std::int64_t{1}));
}

TEST(parameter_value, find_parameter_returns_the_named_value_or_null) {
  const parameter_list parameters{{"n", 4}, {"layout", "col"}};
  ASSERT_NE(find_parameter(parameters, "layout"), nullptr);
  EXPECT_EQ(find_parameter(parameters, "layout")->as_string(), "col");
  EXPECT_EQ(find_parameter(parameters, "m"), nullptr);
}

}  // namespace
}  // namespace counterguard
