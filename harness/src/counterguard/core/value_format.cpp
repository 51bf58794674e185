// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/value_format.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

namespace counterguard {

std::string format_value(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  if (value == 0.0)
    return "0";  // no "-0"
  // Below 2^53 an integral double is an exact integer; print it as one rather than as 4.063232e+06.
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0)
    return fmt::format("{}", static_cast<std::int64_t>(value));
  return fmt::format("{}", value);
}

change_text format_change(double from, double to) {
  const double difference = to - from;
  change_text text;
  text.difference = (difference >= 0 ? "+" : "") + format_value(difference);
  if (from != 0.0) {
    const double percent = std::round(difference / std::abs(from) * 1000.0) / 10.0;
    text.percent = (percent >= 0 ? "+" : "") + format_value(percent) + "%";
  }
  return text;
}

}  // namespace counterguard
