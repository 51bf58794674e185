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

}  // namespace counterguard
