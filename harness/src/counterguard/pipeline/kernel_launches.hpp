// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "counterguard/pipeline/case_selection.hpp"

namespace counterguard {

// `counterguard launch`: each selected case's kernels run once, verified, without CUPTI, inside an NVTX range
// named after the instance, so external tools (ncu, nsys, compute-sanitizer) can watch them. Returns the exit
// status (1 when an output is wrong or a case cannot run).
int launch_cases(const selection_options& selection);

}  // namespace counterguard
