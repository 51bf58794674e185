#include "counterguard/checker/value_format.hpp"

#include <fmt/format.h>

#include <cmath>

namespace counterguard {

std::string format_value(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  if (value == 0.0)
    return "0";  // no "-0"
  return fmt::format("{}", value);
}

}  // namespace counterguard
