// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "counterguard/reporters/findings.hpp"

namespace counterguard {

// GitHub shows at most 10 error annotations of a step (and 50 of a job); the commands past them are
// dropped without a word (actions/toolkit, docs/problem-matchers.md, "Limitations").
inline constexpr std::size_t github_annotations_per_step = 10;

// GitHub Actions workflow commands, one per finding: `::error file=PATH,line=N,title=TITLE::TEXT` (a finding
// without a place: no file and line), TEXT holding the expected and measured values and the blamed
// instruction; source-line findings first, so they are the ones shown on the pull request's diff. Printed
// by a step (`cat FILE`), each becomes an annotation. More than `limit` findings (0: no limit): the first
// limit - 1, then one command saying how many more there are and where they are listed (`full_report`, or
// the job's summary when empty), then each one not annotated as a plain log line.
[[nodiscard]] std::string render_github_annotations(const std::vector<finding>& findings, std::size_t limit,
                                                    const std::string& full_report);

// Workflow-command escaping: of a message ('%', CR, LF), and of a property value (also ':' and ',').
[[nodiscard]] std::string escape_command_data(const std::string& text);
[[nodiscard]] std::string escape_command_property(const std::string& text);

}  // namespace counterguard
