// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/text_table.hpp"

#include <gtest/gtest.h>

namespace counterguard {
namespace {

TEST(align_columns, pads_each_column_to_its_widest_cell_two_spaces_apart_and_leaves_the_last_unpadded) {
  EXPECT_EQ(
      align_columns({{"CASE", "METRIC", "VERDICT"}, {"a/long_name", "x", "pass"}, {"b", "metric", "FAIL"}}),
      "CASE         METRIC  VERDICT\n"
      "a/long_name  x       pass\n"
      "b            metric  FAIL\n");
}

TEST(align_columns, no_rows_is_no_text) {
  EXPECT_EQ(align_columns({}), "");
}

}  // namespace
}  // namespace counterguard
