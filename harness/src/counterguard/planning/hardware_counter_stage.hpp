// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace counterguard {

// Which hardware stage a raw CUPTI counter reads, by its name: the unit and the first word after it
// ("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum" -> "l1tex__t", "idc__requests.sum" -> "idc__requests",
// "sm__warps_active.avg.pct_of_peak_sustained_active" -> "sm__warps"); empty for an instrumented counter
// (SASS-patched: "__sass_" in its name). Why it matters: in kernel replay each launch pays for the hardware
// stages its configuration collects, not for the counters alone (on the H200 a launch replayed with the L1TEX
// tag-stage local-memory counters took 27 ms, with the constant cache's 4 ms, with instrumented counters
// under 1 ms, on the H200), so a case must not be given stages it does not collect itself.
[[nodiscard]] std::string hardware_counter_stage(const std::string& raw_metric);

// The distinct hardware stages of a set of raw counters, sorted (empty: instrumented counters only).
[[nodiscard]] std::vector<std::string> hardware_counter_stages(const std::vector<std::string>& raw_metrics);

}  // namespace counterguard
