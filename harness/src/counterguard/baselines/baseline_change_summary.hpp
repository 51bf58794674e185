// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/baselines/baseline_update.hpp"
#include "counterguard/core/markdown_budget.hpp"

namespace counterguard {

// What a summary describes: a refresh ("Baseline update", N instances measured) or the differences between
// two baseline directories ("Baseline changes", N instances differ; baseline_directory_diff.hpp).
enum class change_summary_kind { update, comparison };

// The change summaries of several suites (render_change_summary_markdown, each followed by a blank line) as
// one pull-request body. Longer than budget.max_characters, every suite keeps its heading and counts and the
// entries are listed most urgent first until the budget is spent: cases that could not be recorded, then
// changed values, removed entries, added entries (suites in the given order, each table in file order);
// a last line says how many entries were left out and names budget.full_report, where all of them are.
[[nodiscard]] std::string render_change_summaries_markdown(
    const std::vector<baseline_update_result>& updates, const markdown_budget& budget = {},
    change_summary_kind kind = change_summary_kind::update);

}  // namespace counterguard
