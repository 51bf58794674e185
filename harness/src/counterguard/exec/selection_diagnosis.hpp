// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counterguard/exec/process_record.hpp"
#include "counterguard/model/launch_selector.hpp"

namespace counterguard {

// Why a selector that selected nothing came close, in one sentence that ends with the selector to write
// instead: a range name holding '/' read as two nested ranges, a range in another NVTX domain or of the other
// kind (push/pop against start/end), a kernel pattern that matches only without template arguments or
// namespaces. `kernels`: every kernel the program launched, with the NVTX contexts it ran in. Nothing when no
// such near miss explains it.
[[nodiscard]] std::optional<std::string> diagnose_near_miss(const launch_selector& selector,
                                                            const std::vector<seen_kernel>& kernels);

// The selector's `nvtx:` as a suite writes it: "phase/x", ["phase/x"], "CCCL@a/b",
// {range: epoch, kind: start_end}.
[[nodiscard]] std::string nvtx_selector_yaml(const nvtx_selector& selector);

}  // namespace counterguard
