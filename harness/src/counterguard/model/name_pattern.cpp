// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/name_pattern.hpp"

#include <fnmatch.h>

namespace counterguard {

name_pattern name_pattern::glob(std::string text) {
  name_pattern pattern;
  pattern.m_text = std::move(text);
  return pattern;
}

name_pattern name_pattern::exact(std::string text) {
  name_pattern pattern;
  pattern.m_text = std::move(text);
  pattern.m_exact = true;
  return pattern;
}

name_pattern name_pattern::regex(std::string text) {
  name_pattern pattern;
  pattern.m_regex = std::make_shared<const std::regex>(text, std::regex::ECMAScript);
  pattern.m_text = std::move(text);
  return pattern;
}

bool name_pattern::matches(const std::string& name) const {
  if (m_regex)
    return std::regex_search(name, *m_regex);
  if (m_exact)
    return name == m_text;
  // fnmatch(3) without FNM_PATHNAME: '*' also crosses '/' and '::'.
  return ::fnmatch(m_text.c_str(), name.c_str(), 0) == 0;
}

std::string name_pattern::describe() const {
  return (m_regex ? "regex '" : "'") + m_text + "'";
}

}  // namespace counterguard
