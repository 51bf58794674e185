// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// A number as reports, messages and generated files print it: the shortest text that reads back as the same
// double, integers below 2^53 without exponent ("4063232", "4.5", "1e+20"); "nan" / "inf" / "-inf" for
// non-finite values; never "-0".
[[nodiscard]] std::string format_value(double value);

// A change from `from` to `to` as messages print it: the difference with its sign ("+50", "-0.5", "+0") and,
// when `from` is not 0, the relative change in percent with its sign, to one decimal ("+50%", "-2.5%").
struct change_text {
  std::string difference;
  std::string percent;  // empty when `from` is 0: no relative change to give
};
[[nodiscard]] change_text format_change(double from, double to);

}  // namespace counterguard
