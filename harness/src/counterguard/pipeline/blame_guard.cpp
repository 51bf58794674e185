// SPDX-License-Identifier: Apache-2.0
#include "detail/blame_guard.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <exception>

#include "counterguard/core/error.hpp"

namespace counterguard::detail {

void blame_without_costing_the_verdict(const std::function<std::size_t()>& blame, bool quiet,
                                       const std::string& after) {
  std::size_t blamed = 0;
  try {
    blamed = blame();
  } catch (const interrupted_error&) {
    throw;
  } catch (const std::exception& e) {
    std::fputs(fmt::format("counterguard: no source-line blame: {}\n", e.what()).c_str(), stderr);
    return;
  }
  if (blamed > 0 && !quiet) {
    std::fputs(fmt::format("counterguard: blamed {} failed case{} to source lines{}\n", blamed,
                           blamed == 1 ? "" : "s", after)
                   .c_str(),
               stderr);
  }
}

}  // namespace counterguard::detail
