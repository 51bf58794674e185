// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cupti/counter_data_prefix.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "counterguard/core/error.hpp"

namespace counterguard::detail {
namespace {

// Host only: NVPW builds prefixes for a chip with no GPU present (CI runs this without one).
TEST(counter_data_prefix, names_the_raw_counters_of_the_metrics_and_grows_with_them) {
  const auto one = counter_data_prefix("GH100", {}, {"smsp__sass_inst_executed_op_global_ld.sum"});
  const auto two =
      counter_data_prefix("GH100", {}, {"smsp__sass_inst_executed_op_global_ld.sum", "idc__requests.sum"});
  EXPECT_FALSE(one.empty());
  EXPECT_GT(two.size(), one.size());
  // A metric asked for twice adds nothing: its raw counters are requested once.
  EXPECT_EQ(counter_data_prefix(
                "GH100", {},
                {"smsp__sass_inst_executed_op_global_ld.sum", "idc__requests.sum", "idc__requests.sum"}),
            two);
}

TEST(counter_data_prefix, a_metric_the_chip_lacks_is_named_in_the_error) {
  try {
    static_cast<void>(counter_data_prefix("GH100", {}, {"idc__requests.sum", "l1tex__no_such_counter.sum"}));
    FAIL() << "an unknown metric built a prefix";
  } catch (const api_error& e) {
    EXPECT_NE(std::string(e.what()).find("'l1tex__no_such_counter.sum' on chip GH100"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace counterguard::detail
