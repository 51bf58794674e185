// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one rule every source-line blame of a run follows: blame explains a failure, it never costs the run its
// verdict or its reports (shared by `run --blame` and `exec --blame`).

#include <cstddef>
#include <functional>
#include <string>

namespace counterguard::detail {

// Runs `blame` (the number of cases it blamed). A failure of it is printed as "no source-line blame: ..." and
// swallowed (an interruption is not); a success is summed up unless `quiet`, `after` appended to that line.
void blame_without_costing_the_verdict(const std::function<std::size_t()>& blame, bool quiet,
                                       const std::string& after = {});

}  // namespace counterguard::detail
