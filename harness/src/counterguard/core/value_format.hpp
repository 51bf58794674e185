// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace counterguard {

// A number as reports, messages and generated files print it: the shortest text that reads back as the same
// double, integers below 2^53 without exponent ("4063232", "4.5", "1e+20"); "nan" / "inf" / "-inf" for
// non-finite values; never "-0".
[[nodiscard]] std::string format_value(double value);

}  // namespace counterguard
