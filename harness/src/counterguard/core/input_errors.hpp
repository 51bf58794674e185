// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "counterguard/core/error.hpp"

namespace counterguard {

// Several problems of one input reported together, as a compiler reports every error of a file: the first
// `kept` of them (each file:line:column: field ...), and how many there were in all. It is an input_error
// whose parts are the first problem's; what() lists them all, one a line, then "and N more errors".
class input_error_list : public input_error {
 public:
  input_error_list(std::vector<input_error> errors, std::size_t total);
  [[nodiscard]] const std::vector<input_error>& errors() const { return m_errors; }
  [[nodiscard]] std::size_t total() const { return m_total; }
  [[nodiscard]] const char* what() const noexcept override { return m_text.c_str(); }

 private:
  std::vector<input_error> m_errors;
  std::size_t m_total;
  std::string m_text;
};

// Collects the input_errors of the independent parts of an input (the cases of a suite, the expectations of
// a case, the files of a directory) so that one run reports them all, up to `cap`.
class input_error_collector {
 public:
  static constexpr std::size_t cap = 20;

  // Runs `part`, keeping an input_error it throws (every error of an input_error_list); true when it threw
  // none. Other exceptions pass through.
  template <class Part>
  bool attempt(Part&& part) {
    try {
      std::forward<Part>(part)();
      return true;
    } catch (const input_error_list& errors) {
      add(errors);
    } catch (const input_error& error) {
      add(error);
    }
    return false;
  }

  void add(const input_error& error);
  void add(const input_error_list& errors);
  [[nodiscard]] bool empty() const { return m_total == 0; }

  // Nothing when no error was collected; the one error as it was; else an input_error_list.
  void throw_if_any() const;

 private:
  std::vector<input_error> m_errors;
  std::size_t m_total = 0;
};

}  // namespace counterguard
