// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/display_number.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace counterguard {
namespace {

TEST(format_display_value, keeps_integers_whole) {
  EXPECT_EQ(format_display_value(4063232), "4063232");
  EXPECT_EQ(format_display_value(123456789012), "123456789012");
  EXPECT_EQ(format_display_value(0), "0");
  EXPECT_EQ(format_display_value(-0.0), "0");
}

TEST(format_display_value, rounds_fractions_to_six_significant_digits) {
  EXPECT_EQ(format_display_value(28774.92059073962), "28774.9");
  EXPECT_EQ(format_display_value(39727.746075927054), "39727.7");
  EXPECT_EQ(format_display_value(31.058823529411764), "31.0588");
  EXPECT_EQ(format_display_value(0.000123456789), "0.000123457");
  EXPECT_EQ(format_display_value(-2.5), "-2.5");
  EXPECT_EQ(format_display_value(59.7), "59.7");
}

TEST(format_display_value, never_drops_a_digit_left_of_the_point) {
  EXPECT_EQ(format_display_value(4063232.6), "4063233");
  EXPECT_EQ(format_display_value(-1234567.25), "-1234567");
}

TEST(format_display_value, writes_non_finite_values_as_words) {
  EXPECT_EQ(format_display_value(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_display_value(std::numeric_limits<double>::infinity()), "inf");
}

TEST(round_numbers_in, rounds_the_numbers_of_a_band) {
  EXPECT_EQ(round_numbers_in("33251.33 in [28774.92059073962, 39727.746075927054]"),
            "33251.3 in [28774.9, 39727.7]");
  EXPECT_EQ(round_numbers_in("1000 in [900, 1100]"), "1000 in [900, 1100]");
  EXPECT_EQ(round_numbers_in("-0.123456789 (±2.5%)"), "-0.123457 (±2.5%)");
}

TEST(round_numbers_in, leaves_integers_and_numbers_inside_names_alone) {
  EXPECT_EQ(round_numbers_in("== 4063232"), "== 4063232");
  EXPECT_EQ(round_numbers_in("sm_90 x1.23456789 n=2048"), "sm_90 x1.23456789 n=2048");
  EXPECT_EQ(round_numbers_in("1.2345678abc"), "1.2345678abc");
}

}  // namespace
}  // namespace counterguard
