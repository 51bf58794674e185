// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace counterguard {

// A number as a person reads it in a report table: integers in full (an exact count is never rounded),
// other values to about `significant_digits` significant digits, never dropping a digit left of the point
// ("28774.9", "0.000123457", "4063233" for 4063232.6); "nan" / "inf" for non-finite values, never "-0".
// Machine-read reports (JSON) keep format_value's full precision.
[[nodiscard]] std::string format_display_value(double value, int significant_digits = 6);

// `text` with every decimal number that has a fraction or an exponent written by format_display_value:
// "1000.5 in [28774.92059073962, 39727.746075927054]" -> "1000.5 in [28774.9, 39727.7]". Integers and the
// digits inside names ("sm_90", "n=2048") are left as they are.
[[nodiscard]] std::string round_numbers_in(std::string_view text, int significant_digits = 6);

}  // namespace counterguard
