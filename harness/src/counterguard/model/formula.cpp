// SPDX-License-Identifier: Apache-2.0
#include "counterguard/model/formula.hpp"

#include <muParser.h>

#include <deque>
#include <string>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/core/value_format.hpp"

namespace counterguard {
namespace {

constexpr const char* formula_syntax_hint =
    "a formula is a number or an expression of the case's numeric parameters with + - * / ^, parentheses "
    "and functions such as min(a, b), e.g. \"31 * n * n / 32\"";

std::string numeric_parameter_names(const parameter_list& parameters) {
  std::string names;
  for (const auto& [name, value] : parameters) {
    if (!value.is_number())
      continue;
    if (!names.empty())
      names += ", ";
    names += name;
  }
  return names.empty() ? "none" : names;
}

// muparser reports positions 0-based within the expression; say which token it stopped at.
std::string describe_parser_error(const mu::Parser::exception_type& failure) {
  std::string text = failure.GetMsg();
  if (failure.GetPos() >= 0)
    text += " (at character " + std::to_string(failure.GetPos() + 1) + ")";
  return text;
}

// Whether the formula is the one name and nothing else ("four", " four ").
bool is_lone_name(const std::string& text, const std::string& name) {
  const std::size_t begin = text.find_first_not_of(" \t");
  const std::size_t end = text.find_last_not_of(" \t");
  return begin != std::string::npos && text.compare(begin, end - begin + 1, name) == 0;
}

}  // namespace

formula::formula(double constant) : m_text(format_value(constant)), m_constant(constant) {}

formula formula::parse(const std::string& text, const source_location& where, const std::string& field) {
  formula result;
  result.m_text = text;
  result.m_where = where;
  result.m_field = field;
  if (text.find_first_not_of(" \t") == std::string::npos) {
    throw input_error(where, field, "the formula is empty", formula_syntax_hint);
  }
  try {
    mu::Parser parser;
    parser.SetExpr(text);
    // Collecting the variables compiles the whole expression, so every syntax error surfaces here.
    if (parser.GetUsedVar().empty()) {
      result.m_constant = parser.Eval();
      result.m_is_constant = true;
    } else {
      result.m_is_constant = false;
    }
  } catch (const mu::Parser::exception_type& failure) {
    throw input_error(where, field, "invalid formula '" + text + "': " + describe_parser_error(failure),
                      formula_syntax_hint);
  }
  return result;
}

formula formula::number(double value, const source_location& where, const std::string& field) {
  formula result(value);
  result.m_where = where;
  result.m_field = field;
  return result;
}

double formula::evaluate(const parameter_list& parameters) const {
  if (m_is_constant)
    return m_constant;
  try {
    mu::Parser parser;
    parser.SetExpr(m_text);
    std::vector<std::string> used;
    for (const auto& variable : parser.GetUsedVar())
      used.push_back(variable.first);
    std::deque<double> values;  // muparser keeps pointers to the variables: their addresses must not move
    for (const auto& name : used) {
      const parameter_value* value = find_parameter(parameters, name);
      if (value == nullptr) {
        const std::string valid = "numeric parameters of this case: " + numeric_parameter_names(parameters) +
                                  "; a value is a number or a formula of them, e.g. 0 or \"n / 32\"";
        if (is_lone_name(m_text, name))  // `expect: four`: a word where a number was meant
          throw input_error(m_where, m_field, "'" + name + "' is neither a number nor a parameter", valid);
        throw input_error(m_where, m_field,
                          "formula '" + m_text + "' uses '" + name + "', which is not a parameter", valid);
      }
      if (!value->is_number()) {
        throw input_error(m_where, m_field,
                          "formula '" + m_text + "' uses '" + name + "', which is a string parameter ('" +
                              value->as_string() + "')",
                          "numeric parameters of this case: " + numeric_parameter_names(parameters));
      }
      values.push_back(value->as_double());
      parser.DefineVar(name, &values.back());
    }
    return parser.Eval();
  } catch (const mu::Parser::exception_type& failure) {
    throw input_error(m_where, m_field,
                      "cannot evaluate formula '" + m_text + "': " + describe_parser_error(failure),
                      formula_syntax_hint);
  }
}

}  // namespace counterguard
