// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/check_bar.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>

namespace counterguard {
namespace {

TEST(accepted_values_of, reads_the_expectation_forms) {
  const auto equals = accepted_values_of("== 4063232");
  ASSERT_TRUE(equals);
  EXPECT_EQ(equals->low, 4063232);
  EXPECT_EQ(equals->high, 4063232);
  const auto at_most = accepted_values_of("<= 31");
  ASSERT_TRUE(at_most);
  EXPECT_TRUE(std::isinf(at_most->low) && at_most->low < 0);
  EXPECT_EQ(at_most->high, 31);
  const auto at_least = accepted_values_of(">= 0");
  ASSERT_TRUE(at_least);
  EXPECT_EQ(at_least->low, 0);
  EXPECT_TRUE(std::isinf(at_least->high));
  const auto between = accepted_values_of("in [2.5, 8]");
  ASSERT_TRUE(between);
  EXPECT_EQ(between->low, 2.5);
  EXPECT_EQ(between->high, 8);
  EXPECT_FALSE(between->centre);
}

TEST(accepted_values_of, reads_the_baseline_forms) {
  const auto band = accepted_values_of("33251.33 in [28774.92059073962, 39727.746075927054]");
  ASSERT_TRUE(band);
  EXPECT_EQ(band->low, 28774.92059073962);
  EXPECT_EQ(band->high, 39727.746075927054);
  EXPECT_EQ(band->centre, 33251.33);
  const auto exact = accepted_values_of("4194304 (exact)");
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->low, 4194304);
  EXPECT_EQ(exact->high, 4194304);
  const auto zero = accepted_values_of("0 (must stay 0)");
  ASSERT_TRUE(zero);
  EXPECT_EQ(zero->high, 0);
  const auto tolerance = accepted_values_of("200 (\u00b15%)");
  ASSERT_TRUE(tolerance);
  EXPECT_EQ(tolerance->low, 190);
  EXPECT_EQ(tolerance->high, 210);
}

TEST(accepted_values_of, states_nothing_for_other_texts) {
  EXPECT_FALSE(accepted_values_of("(no baseline)"));
  EXPECT_FALSE(accepted_values_of("== n * 2"));
  EXPECT_FALSE(accepted_values_of("in [1, 2"));
  EXPECT_FALSE(accepted_values_of(""));
}

// The x coordinates of the bar's accepted area and of its dot.
struct bar_geometry {
  double from = 0;
  double to = 0;
  double dot = -1;
};

bar_geometry geometry(const std::string& svg) {
  bar_geometry g;
  std::smatch m;
  if (std::regex_search(svg, m, std::regex(R"re(<rect x="([-0-9.]+)" y="2" width="([0-9.]+)")re"))) {
    g.from = std::stod(m[1]);
    g.to = g.from + std::stod(m[2]);
  }
  if (std::regex_search(svg, m, std::regex(R"re(<circle cx="([-0-9.]+)")re")))
    g.dot = std::stod(m[1]);
  return g;
}

check_outcome check_of(const std::string& expected, std::optional<double> measured) {
  check_outcome c;
  c.metric = "m";
  c.expected = expected;
  c.measured = measured;
  return c;
}

TEST(check_bar, places_a_passing_value_inside_the_band_and_a_failing_one_outside) {
  const bar_geometry inside = geometry(render_check_bar_svg(check_of("1000 in [900, 1100]", 1050)));
  EXPECT_GT(inside.dot, inside.from);
  EXPECT_LT(inside.dot, inside.to);
  const bar_geometry outside = geometry(render_check_bar_svg(check_of("1000 in [900, 1100]", 1500)));
  EXPECT_GT(outside.dot, outside.to);
  EXPECT_LE(outside.dot, 120);
}

TEST(check_bar, an_open_side_reaches_the_edge) {
  const bar_geometry at_least = geometry(render_check_bar_svg(check_of(">= 0", 4083790)));
  EXPECT_NEAR(at_least.to, 120, 0.11);
  EXPECT_LT(at_least.from, at_least.dot);
  const bar_geometry at_most = geometry(render_check_bar_svg(check_of("<= 31", 12)));
  EXPECT_EQ(at_most.from, 0);
}

TEST(check_bar, a_single_accepted_value_is_a_thin_visible_bar_under_its_value) {
  const std::string svg = render_check_bar_svg(check_of("== 0", 0));
  const bar_geometry g = geometry(svg);
  EXPECT_NEAR(g.to - g.from, 2.0, 0.11) << svg;
  EXPECT_GE(g.dot, g.from);
  EXPECT_LE(g.dot, g.to);
  const bar_geometry off = geometry(render_check_bar_svg(check_of("== 0", 4063232)));
  EXPECT_GT(off.dot, off.to);
}

TEST(check_bar, marks_the_baseline_value_and_leaves_out_what_is_not_there) {
  EXPECT_NE(render_check_bar_svg(check_of("1000 in [900, 1100]", 1000)).find("<path d=\"M"),
            std::string::npos);
  EXPECT_EQ(render_check_bar_svg(check_of("== 4", 4)).find("<path"), std::string::npos);
  const std::string missing = render_check_bar_svg(check_of("== 4", std::nullopt));
  EXPECT_NE(missing.find("<rect"), std::string::npos);
  EXPECT_EQ(missing.find("<circle"), std::string::npos);
  EXPECT_EQ(render_check_bar_svg(check_of("(no baseline)", std::nullopt)), "");
}

}  // namespace
}  // namespace counterguard
