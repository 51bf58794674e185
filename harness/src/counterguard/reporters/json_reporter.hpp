// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "counterguard/checker/judged_run.hpp"

namespace counterguard {

// The results JSON (docs/results-schema.md) plus a "summary" object: the counts of run_summary, the rule
// ("strict") and "exit_code", so CI scripts need not recount.
[[nodiscard]] nlohmann::json make_json_report(const judged_run& run);

// make_json_report's text, indented by 2 and ending in a newline, built case by case so that a large run's
// report never exists as one JSON tree (host memory stays close to the text's size).
[[nodiscard]] std::string render_json_report(const judged_run& run);

// Writes render_json_report atomically to `path`.
void write_json_report(const std::string& path, const judged_run& run);

}  // namespace counterguard
