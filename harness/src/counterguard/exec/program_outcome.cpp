// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/program_outcome.hpp"

#include <fmt/format.h>

#include <csignal>
#include <cstring>
#include <nlohmann/json.hpp>

#include "counterguard/core/json_reader.hpp"

namespace counterguard {
namespace {

std::string signal_name(int number) {
  switch (number) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGKILL:
      return "SIGKILL";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    case SIGPIPE:
      return "SIGPIPE";
    default:
      return "signal " + std::to_string(number);
  }
}

}  // namespace

std::string program_outcome::describe() const {
  if (timed_out) {
    return fmt::format(
        "ran longer than the timeout of {:g} s and was killed (raise --timeout if it is legitimately "
        "slow)",
        timeout_seconds);
  }
  if (signal) {
    return fmt::format("was killed by signal {} ({}{}) after {:.2f} s", *signal, signal_name(*signal),
                       core_dumped ? ", core dumped" : "", seconds);
  }
  if (exit_status)
    return fmt::format("exited with status {} after {:.2f} s", *exit_status, seconds);
  return "did not report how it ended";
}

case_result program_case_result(const program_outcome& outcome, bool failure_allowed) {
  case_result result;
  result.suite = "exec";
  result.case_name = "program";
  result.instance = "exec/program";
  std::string command;
  for (const auto& argument : outcome.argv)
    command += (command.empty() ? "" : " ") + argument;
  result.kernel = command;
  result.seconds = outcome.seconds;
  result.status = case_status::passed;
  // The outcome is a check, so that the checker settles the case like any other and every reporter shows it.
  check_outcome check;
  check.metric = "exit_status";
  check.origin = "program";
  check.expected = failure_allowed ? "any (--allow-program-failure)" : "== 0";
  if (outcome.exit_status)
    check.measured = *outcome.exit_status;
  else if (outcome.signal)
    check.measured = 128 + *outcome.signal;  // as a shell reports it
  const bool ok = outcome.succeeded() || failure_allowed;
  check.verdict = ok ? check_verdict::pass : check_verdict::fail;
  check.failing = !ok;
  check.message = "the program " + outcome.describe();
  if (!outcome.succeeded())
    check.message += failure_allowed     ? " (allowed by --allow-program-failure)"
                     : outcome.timed_out ? ""
                                         : "; --allow-program-failure accepts a failing program";
  result.checks.push_back(std::move(check));
  return result;
}

nlohmann::json program_outcome_to_json(const program_outcome& outcome) {
  return {
      {"argv", outcome.argv},
      {"exit_status", outcome.exit_status ? nlohmann::json(*outcome.exit_status) : nlohmann::json(nullptr)},
      {"signal", outcome.signal ? nlohmann::json(*outcome.signal) : nlohmann::json(nullptr)},
      {"core_dumped", outcome.core_dumped},
      {"timed_out", outcome.timed_out},
      {"timeout_seconds", outcome.timeout_seconds},
      {"seconds", outcome.seconds}};
}

program_outcome program_outcome_from_json(const nlohmann::json& document, const std::string& file,
                                          const std::string& field) {
  const json_reader reader(file);
  reader.require_object(document, field);
  program_outcome outcome;
  outcome.argv = reader.strings(document, field, "argv");
  if (!reader.member(document, field, "exit_status").is_null())
    outcome.exit_status = static_cast<int>(reader.integer(document, field, "exit_status", 0, 255));
  if (!reader.member(document, field, "signal").is_null())
    outcome.signal = static_cast<int>(reader.integer(document, field, "signal", 1, 128));
  outcome.core_dumped = reader.boolean(document, field, "core_dumped");
  outcome.timed_out = reader.boolean(document, field, "timed_out");
  outcome.timeout_seconds = reader.number_or_nan(reader.member(document, field, "timeout_seconds"),
                                                 field_at(field, "timeout_seconds"));
  outcome.seconds =
      reader.number_or_nan(reader.member(document, field, "seconds"), field_at(field, "seconds"));
  return outcome;
}

}  // namespace counterguard
