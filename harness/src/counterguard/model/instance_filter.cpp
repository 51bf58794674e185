// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <regex>
#include <string_view>

#include "counterguard/core/error.hpp"
#include "counterguard/model/name_pattern.hpp"
#include "counterguard/model/suite_loader.hpp"

namespace counterguard {
namespace {

// `*` matches any run of characters (also none); every other character matches itself.
bool matches(const std::string& text, const std::string& pattern) {
  std::size_t t = 0;
  std::size_t p = 0;
  std::size_t star = std::string::npos;  // where the last `*` was, to backtrack to
  std::size_t star_text = 0;             // how much text that `*` has swallowed so far
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*')
    ++p;
  return p == pattern.size();
}

}  // namespace

std::vector<case_instance> filter_instances(std::vector<case_instance> instances,
                                            const std::string& pattern) {
  if (pattern.empty())
    return instances;
  constexpr std::string_view regex_prefix = "regex:";
  if (pattern.compare(0, regex_prefix.size(), regex_prefix) == 0) {
    name_pattern expression;
    try {
      expression = name_pattern::regex(pattern.substr(regex_prefix.size()));
    } catch (const std::regex_error& e) {
      throw input_error({}, "--filter",
                        "'" + pattern + "' is not a valid regular expression (" + e.what() + ")",
                        "regex:EXPR with an ECMAScript regular expression, e.g. regex:'^transpose/smem'");
    }
    instances.erase(
        std::remove_if(instances.begin(), instances.end(),
                       [&](const case_instance& instance) { return !expression.matches(instance.name); }),
        instances.end());
    return instances;
  }
  instances.erase(
      std::remove_if(instances.begin(), instances.end(),
                     [&](const case_instance& instance) { return !matches(instance.name, pattern); }),
      instances.end());
  return instances;
}

}  // namespace counterguard
