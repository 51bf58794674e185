// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <regex>
#include <string>

namespace counterguard {

// A name pattern as a selector writes it: a glob (`*` any run of characters, `?` one character, `[...]` a
// class, as in the shell; a name without them matches only itself) or, written `regex:...` or
// `{regex: ...}`, an ECMAScript regular expression that may match anywhere in the name (anchor it with ^ $).
class name_pattern {
 public:
  name_pattern() = default;
  static name_pattern glob(std::string text);
  // The name itself, every character literal (names that hold '?', '*' or '[').
  static name_pattern exact(std::string text);
  // Throws std::regex_error for a bad regular expression (the parsers turn it into an input_error).
  static name_pattern regex(std::string text);

  [[nodiscard]] bool matches(const std::string& name) const;
  [[nodiscard]] bool is_regex() const { return m_regex != nullptr; }
  [[nodiscard]] bool is_exact() const { return m_exact; }
  [[nodiscard]] const std::string& text() const { return m_text; }
  // "'reduce*'" or "regex '^reduce'", for messages.
  [[nodiscard]] std::string describe() const;

 private:
  std::string m_text;
  std::shared_ptr<const std::regex> m_regex;  // set for regular expressions
  bool m_exact = false;
};

}  // namespace counterguard
