// SPDX-License-Identifier: Apache-2.0
#include "counterguard/core/markdown_budget.hpp"

namespace counterguard {

std::string markdown_overflow_line(std::size_t left_out, std::size_t total, const std::string& noun,
                                   const std::string& full_report) {
  std::string where = "the job's console output lists all of them";
  if (!full_report.empty()) {
    std::string path;
    for (char c : full_report)
      path += c == '`' ? '\'' : c;  // a backtick would end the code span
    where = "all of them are in `" + path + "`";
  }
  return "_**" + std::to_string(left_out) + " of " + std::to_string(total) + " " + noun +
         " are not listed here** for size; " + where + "._\n";
}

}  // namespace counterguard
