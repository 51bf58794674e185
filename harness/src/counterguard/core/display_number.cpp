// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/display_number.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "counterguard/core/value_format.hpp"

namespace counterguard {
namespace {

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// Part of a name or a word: a number glued to it is not a value ("sm_90", "x2", "e5").
bool is_word_character(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

}  // namespace

std::string format_display_value(double value, int significant_digits) {
  if (!std::isfinite(value) || value == std::floor(value))
    return format_value(value);
  const double magnitude = std::fabs(value);
  if (magnitude < 1e-6 || magnitude >= 1e15)
    return fmt::format("{:.{}g}", value, significant_digits);
  const int integer_digits = static_cast<int>(std::floor(std::log10(magnitude))) + 1;
  const int decimals = std::max(0, significant_digits - integer_digits);
  std::string text = fmt::format("{:.{}f}", value, decimals);
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.')
      text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

std::string round_numbers_in(std::string_view text, int significant_digits) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const bool starts_number =
        is_digit(text[i]) && (i == 0 || (!is_word_character(text[i - 1]) && text[i - 1] != '.'));
    if (!starts_number) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_digit(text[end]))
      ++end;
    bool fraction_or_exponent = false;
    if (end + 1 < text.size() && text[end] == '.' && is_digit(text[end + 1])) {
      fraction_or_exponent = true;
      ++end;
      while (end < text.size() && is_digit(text[end]))
        ++end;
    }
    if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
      std::size_t exponent = end + 1;
      if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-'))
        ++exponent;
      if (exponent < text.size() && is_digit(text[exponent])) {
        fraction_or_exponent = true;
        end = exponent;
        while (end < text.size() && is_digit(text[end]))
          ++end;
      }
    }
    const std::string_view number = text.substr(i, end - i);
    if (!fraction_or_exponent || (end < text.size() && is_word_character(text[end]))) {
      out += number;
    } else {
      const std::string literal(number);
      out += format_display_value(std::strtod(literal.c_str(), nullptr), significant_digits);
    }
    i = end;
  }
  return out;
}

}  // namespace counterguard
