// SPDX-License-Identifier: Apache-2.0
#include "counterguard/history/checked_band.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace counterguard {
namespace {

// The number at the start of `text` (after spaces); advances `text` past it.
std::optional<double> read_number(std::string_view& text) {
  while (!text.empty() && text.front() == ' ')
    text.remove_prefix(1);
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || !std::isfinite(value))
    return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

bool consume(std::string_view& text, std::string_view expected) {
  if (text.substr(0, expected.size()) != expected)
    return false;
  text.remove_prefix(expected.size());
  return true;
}

}  // namespace

std::optional<value_band> band_of_check(const check_outcome& check) {
  if (check.origin != "baseline")
    return std::nullopt;
  std::string_view text = check.expected;
  const auto value = read_number(text);
  if (!value)
    return std::nullopt;
  if (text == " (exact)" || text == " (must stay 0)")
    return value_band{*value, *value};
  if (consume(text, " in [")) {
    const auto low = read_number(text);
    if (!low || !consume(text, ","))
      return std::nullopt;
    const auto high = read_number(text);
    if (!high || text != "]")
      return std::nullopt;
    return value_band{*low, *high};
  }
  if (consume(text, " (\u00b1")) {
    const auto percent = read_number(text);
    if (!percent || text != "%)")
      return std::nullopt;
    const double slack = *percent / 100.0 * std::abs(*value);
    return value_band{*value - slack, *value + slack};
  }
  return std::nullopt;
}

}  // namespace counterguard
