// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "counterguard/core/source_location.hpp"
#include "counterguard/model/parameter_value.hpp"

namespace counterguard {

// A number, or an arithmetic expression of the case parameters ("31 * n * n / 32"), evaluated per case
// instance. Parsed with muparser; syntax errors are reported when the suite loads, unknown parameter names
// when an instance is expanded (both as input_error naming the file, line and field).
class formula {
 public:
  formula() = default;
  explicit formula(double constant);
  // Checks the syntax now. `field` names the YAML field for error messages.
  static formula parse(const std::string& text, const source_location& where, const std::string& field);
  // A number read from YAML: no parser needed (most expectations are numbers), its position kept for errors.
  static formula number(double value, const source_location& where, const std::string& field);

  [[nodiscard]] double evaluate(const parameter_list& parameters) const;
  [[nodiscard]] bool is_constant() const { return m_is_constant; }
  [[nodiscard]] const std::string& text() const { return m_text; }
  [[nodiscard]] const source_location& where() const { return m_where; }
  [[nodiscard]] const std::string& field() const { return m_field; }

 private:
  std::string m_text;
  double m_constant = 0.0;
  bool m_is_constant = true;
  source_location m_where;
  std::string m_field;
};

}  // namespace counterguard
