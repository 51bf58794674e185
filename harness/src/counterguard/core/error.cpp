// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/error.hpp"

#include <array>
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

namespace {
constexpr std::array<environment_problem, 8> all_problems{environment_problem::no_gpu,
                                                          environment_problem::insufficient_privileges,
                                                          environment_problem::profiler_busy,
                                                          environment_problem::under_external_profiler,
                                                          environment_problem::unsupported_device,
                                                          environment_problem::gpu_wait_expired,
                                                          environment_problem::file_system,
                                                          environment_problem::process};
}  // namespace

const char* environment_problem_name(environment_problem problem) {
  switch (problem) {
    case environment_problem::no_gpu:
      return "no_gpu";
    case environment_problem::insufficient_privileges:
      return "insufficient_privileges";
    case environment_problem::profiler_busy:
      return "profiler_busy";
    case environment_problem::under_external_profiler:
      return "under_external_profiler";
    case environment_problem::unsupported_device:
      return "unsupported_device";
    case environment_problem::gpu_wait_expired:
      return "gpu_wait_expired";
    case environment_problem::file_system:
      return "file_system";
    case environment_problem::process:
      return "process";
  }
  return "process";
}

std::optional<environment_problem> environment_problem_from_name(const std::string& name) {
  for (const environment_problem problem : all_problems) {
    if (name == environment_problem_name(problem))
      return problem;
  }
  return std::nullopt;
}

}  // namespace counterguard
