// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/check_bar.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

namespace counterguard {
namespace {

// Bar geometry in SVG user units (the page draws the element at this size).
constexpr double bar_width = 120;
constexpr double bar_height = 12;
constexpr double bar_margin = 4;          // the dot stays whole at either end
constexpr double min_accepted_width = 2;  // a single accepted value stays visible

constexpr double unbounded = std::numeric_limits<double>::infinity();

// The number at the start of `text` (after spaces); `rest` is what follows it.
std::optional<double> leading_number(const std::string& text, std::size_t& rest) {
  const char* begin = text.c_str() + rest;
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(value))
    return std::nullopt;
  rest += static_cast<std::size_t>(end - begin);
  return value;
}

bool starts_with(const std::string& text, std::size_t at, const std::string& prefix) {
  return text.compare(at, prefix.size(), prefix) == 0;
}

// "[A, B]" at `at`, to the end of the text.
std::optional<std::pair<double, double>> interval_at(const std::string& text, std::size_t at) {
  if (!starts_with(text, at, "["))
    return std::nullopt;
  std::size_t rest = at + 1;
  const auto low = leading_number(text, rest);
  if (!low || !starts_with(text, rest, ", "))
    return std::nullopt;
  rest += 2;
  const auto high = leading_number(text, rest);
  if (!high || text.compare(rest, std::string::npos, "]") != 0)
    return std::nullopt;
  return std::make_pair(*low, *high);
}

// Shortest text for an SVG coordinate: one decimal, none when it is zero.
std::string coordinate(double value) {
  std::string text = fmt::format("{:.1f}", value);
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0)
    text.resize(text.size() - 2);
  return text == "-0" ? "0" : text;
}

}  // namespace

std::optional<accepted_values> accepted_values_of(const std::string& expected) {
  static const std::pair<const char*, int> comparisons[] = {{"== ", 0}, {"<= ", 1}, {">= ", 2}};
  for (const auto& [prefix, kind] : comparisons) {
    if (!starts_with(expected, 0, prefix))
      continue;
    std::size_t rest = 3;
    const auto value = leading_number(expected, rest);
    if (!value || rest != expected.size())
      return std::nullopt;
    if (kind == 0)
      return accepted_values{*value, *value, std::nullopt};
    if (kind == 1)
      return accepted_values{-unbounded, *value, std::nullopt};
    return accepted_values{*value, unbounded, std::nullopt};
  }
  if (starts_with(expected, 0, "in ")) {
    const auto interval = interval_at(expected, 3);
    if (!interval)
      return std::nullopt;
    return accepted_values{interval->first, interval->second, std::nullopt};
  }
  std::size_t rest = 0;
  const auto value = leading_number(expected, rest);
  if (!value)
    return std::nullopt;
  const std::string tail = expected.substr(rest);
  if (tail.empty() || tail == " (exact)" || tail == " (must stay 0)")
    return accepted_values{*value, *value, *value};
  if (starts_with(tail, 0, " in ")) {
    const auto interval = interval_at(tail, 4);
    if (!interval)
      return std::nullopt;
    return accepted_values{interval->first, interval->second, *value};
  }
  if (starts_with(tail, 0, " (\u00b1") && tail.size() > 5 && tail.compare(tail.size() - 2, 2, "%)") == 0) {
    std::size_t at = std::string(" (\u00b1").size();
    const auto percent = leading_number(tail, at);
    if (!percent || at != tail.size() - 2)
      return std::nullopt;
    const double half_width = std::abs(*value) * *percent / 100.0;
    return accepted_values{*value - half_width, *value + half_width, *value};
  }
  return std::nullopt;
}

std::string render_check_bar_svg(const check_outcome& check) {
  const std::optional<accepted_values> accepted = accepted_values_of(check.expected);
  const std::optional<double> measured =
      check.measured && std::isfinite(*check.measured) ? check.measured : std::nullopt;
  std::vector<double> values;
  if (accepted) {
    for (const double v : {accepted->low, accepted->high, accepted->centre.value_or(unbounded)}) {
      if (std::isfinite(v))
        values.push_back(v);
    }
  }
  if (measured)
    values.push_back(*measured);
  if (values.empty())
    return {};
  double low = *std::min_element(values.begin(), values.end());
  double high = *std::max_element(values.begin(), values.end());
  const double pad = high > low ? (high - low) * 0.1 : std::max(std::abs(low) * 0.1, 1.0);
  low -= pad;
  high += pad;
  const auto x = [&](double value) {
    return bar_margin + (bar_width - 2 * bar_margin) * (value - low) / (high - low);
  };
  std::string svg = fmt::format(R"(<svg viewBox="0 0 {} {}">)", bar_width, bar_height);
  if (accepted) {
    double from = std::isfinite(accepted->low) ? x(accepted->low) : 0.0;
    double to = std::isfinite(accepted->high) ? x(accepted->high) : bar_width;
    if (to - from < min_accepted_width) {
      const double middle = (from + to) / 2;
      from = middle - min_accepted_width / 2;
      to = middle + min_accepted_width / 2;
    }
    svg +=
        fmt::format(R"(<rect x="{}" y="2" width="{}" height="8"/>)", coordinate(from), coordinate(to - from));
    if (accepted->centre)
      svg += fmt::format(R"(<path d="M{} 0v{}"/>)", coordinate(x(*accepted->centre)), bar_height);
  }
  if (measured)
    svg += fmt::format(R"(<circle cx="{}" cy="6" r="3"/>)", coordinate(x(*measured)));
  return svg + "</svg>";
}

}  // namespace counterguard
