// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/model/case_instance.hpp"
#include "counterguard/model/launch_selector_parser.hpp"

namespace counterguard {

// The instances `exec` profiles: the suites' (`suite_instances`, loaded and checked), where a registered
// variant's case selects the launches in the NVTX range named after it (what `counterguard launch` marks),
// then the command line's cases whose names match `filter`. input_error when a name is selected twice.
[[nodiscard]] std::vector<case_instance> exec_case_instances(
    std::vector<case_instance> suite_instances, const std::vector<exec_case_request>& command_line_cases,
    const std::string& filter);

// The case "exec/selection" of the launches --kernel-name or --nvtx-include select (as ncu does); none when
// neither is given. input_error when no --metric (`extra_metrics`) says what to measure.
[[nodiscard]] std::vector<exec_case_request> command_line_cases(
    const selector_flags& flags, const std::vector<std::string>& extra_metrics);

// What the injection library is asked for: each instance that is not skipped, with the raw counters its
// metrics (and `extra_metrics`) need.
[[nodiscard]] std::vector<exec_case_request> exec_requests(const std::vector<case_instance>& instances,
                                                           const std::vector<std::string>& extra_metrics);

// --metric names: an alias of docs/metrics.md, or a raw CUPTI name `chip` has; input_error otherwise.
void validate_extra_metrics(const std::vector<std::string>& names, const std::string& chip);

}  // namespace counterguard
