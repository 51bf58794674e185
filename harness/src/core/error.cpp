#include "counterguard/core/error.hpp"

#include <cstring>
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

interrupted_error::interrupted_error(int signal_number)
    : error(exit_code::environment, std::string("interrupted by ") + strsignal(signal_number) + " (signal " +
                                        std::to_string(signal_number) + ")"),
      m_signal(signal_number) {}

}  // namespace counterguard
