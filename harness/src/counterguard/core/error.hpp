// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "counterguard/core/exit_code.hpp"
#include "counterguard/core/source_location.hpp"

namespace counterguard {

// Base of every error counterguard reports; carries the exit code it maps to.
class error : public std::runtime_error {
 public:
  error(exit_code code, const std::string& message) : std::runtime_error(message), m_code(code) {}
  [[nodiscard]] exit_code code() const { return m_code; }

 private:
  exit_code m_code;
};

// Bad user input. The message names where (file:line:column), the field, the problem and what is valid:
//   cases/t.yaml:12:7: field 'cases[1].expect.shared_bank_conflict': unknown metric; did you mean
//   'shared_store_bank_conflicts'?
class input_error : public error {
 public:
  input_error(source_location where, std::string field, std::string problem, std::string valid = {});
  [[nodiscard]] const source_location& where() const { return m_where; }
  [[nodiscard]] const std::string& field() const { return m_field; }
  [[nodiscard]] const std::string& problem() const { return m_problem; }
  [[nodiscard]] const std::string& valid() const { return m_valid; }

 private:
  source_location m_where;
  std::string m_field;
  std::string m_problem;
  std::string m_valid;
};

// Why the environment cannot profile; each reason has its own message telling the user what to do.
enum class environment_problem {
  no_gpu,                   // no CUDA device or no driver
  insufficient_privileges,  // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
  profiler_busy,            // another process holds the GPU's counters (CUPTI_ERROR_HARDWARE_BUSY)
  under_external_profiler,  // running under ncu / nsys (CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
  unsupported_device,  // the GPU or its configuration (vGPU, MIG, WSL, confidential computing) cannot profile
  gpu_wait_expired,    // another counterguard kept the GPU longer than --wait-for-gpu
  file_system,         // a file or directory could not be written, read or created
  process,             // a worker process, pipe or temporary file could not be set up
};

// The problem's name in files and protocols ("profiler_busy"), and back; nothing for an unknown name.
[[nodiscard]] const char* environment_problem_name(environment_problem problem);
[[nodiscard]] std::optional<environment_problem> environment_problem_from_name(const std::string& name);

class environment_error : public error {
 public:
  environment_error(environment_problem problem, const std::string& message)
      : error(exit_code::environment, message), m_problem(problem) {}
  [[nodiscard]] environment_problem problem() const { return m_problem; }

 private:
  environment_problem m_problem;
};

// A signal (SIGINT, SIGTERM, SIGHUP) stopped the run; the process exits with 128 + the signal's number,
// as shells and CI runners expect.
class interrupted_error : public error {
 public:
  explicit interrupted_error(int signal_number);
  [[nodiscard]] int signal_number() const { return m_signal; }
  [[nodiscard]] int exit_status() const { return 128 + m_signal; }

 private:
  int m_signal;
};

// A kernel variant registered inconsistently (a duplicate name, no factory, a launcher asking for a
// parameter it never declared): the kernel author's input is wrong, so it maps to exit status 2.
class registration_error : public error {
 public:
  explicit registration_error(const std::string& message) : error(exit_code::invalid_input, message) {}
};

// A broken invariant inside counterguard (a bug): exit status 4.
class internal_error : public error {
 public:
  explicit internal_error(const std::string& message) : error(exit_code::internal_error, message) {}
};

// A failed CUDA runtime/driver or CUPTI call that is not the user's fault: "call: name: message; advice".
class api_error : public error {
 public:
  api_error(const std::string& message, int status)
      : error(exit_code::internal_error, message), m_status(status) {}
  [[nodiscard]] int status() const { return m_status; }

 private:
  int m_status;
};

}  // namespace counterguard
