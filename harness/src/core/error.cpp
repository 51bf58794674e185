#include "counterguard/core/error.hpp"

#include <utility>

namespace counterguard {
namespace {

std::string compose_input_message(const source_location& where, const std::string& field,
                                  const std::string& problem, const std::string& valid) {
  std::string message = where.to_string();
  if (!message.empty())
    message += ": ";
  if (!field.empty())
    message += "field '" + field + "': ";
  message += problem;
  if (!valid.empty())
    message += "; " + valid;
  return message;
}

}  // namespace

input_error::input_error(source_location where, std::string field, std::string problem, std::string valid)
    : error(exit_code::invalid_input, compose_input_message(where, field, problem, valid)),
      m_where(std::move(where)),
      m_field(std::move(field)),
      m_problem(std::move(problem)),
      m_valid(std::move(valid)) {}

}  // namespace counterguard
