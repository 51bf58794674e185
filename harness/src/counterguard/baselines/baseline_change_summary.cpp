// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_change_summary.hpp"

#include <algorithm>
#include <tuple>

#include "counterguard/core/markdown_cell.hpp"
#include "counterguard/core/value_format.hpp"

namespace counterguard {
namespace {

std::string spread_text(const baseline_entry& e) {
  std::string text = "[" + format_value(e.min) + ", " + format_value(e.max) + "], n=" + std::to_string(e.n);
  if (e.from_history && *e.from_history > 0)
    text += " (" + std::to_string(*e.from_history) + " from history)";
  return text;
}

std::string delta_text(double before, double after) {
  const change_text change = format_change(before, after);
  return change.difference + (change.percent.empty() ? "" : " (" + change.percent + ")");
}

std::string kernel_cell(const std::string& kernel) {
  return kernel == baseline_total_key ? std::string("(total)") : "`" + markdown_cell(kernel) + "`";
}

// One table (or list) of a suite's summary: its heading and rows, each row a finished line.
struct summary_table {
  std::string head;
  std::vector<std::string> rows;
  int urgency = 0;  // smaller: listed first when the summary is over its budget
};

// A suite's summary: the heading and counts (always shown), then its tables in display order.
struct suite_summary {
  std::string heading;
  std::vector<summary_table> tables;
};

suite_summary summarize_changes(const baseline_update_result& update, change_summary_kind kind) {
  std::size_t changed = 0, added = 0, removed = 0;
  for (const auto& change : update.changes) {
    if (change.what == baseline_change::kind::changed)
      ++changed;
    if (change.what == baseline_change::kind::added)
      ++added;
    if (change.what == baseline_change::kind::removed)
      ++removed;
  }
  suite_summary summary;
  const bool comparison = kind == change_summary_kind::comparison;
  summary.heading = std::string(comparison ? "## Baseline changes: `" : "## Baseline update: `") +
                    update.file.suite + "` on `" + update.file.gpu_key + "`\n\n";
  summary.heading += std::to_string(update.measured.size()) +
                     (comparison ? " case instance(s) differ: " : " case instance(s) measured: ") +
                     std::to_string(changed) + " changed, " + std::to_string(added) + " added, " +
                     std::to_string(removed) + " removed.\n";
  if (update.changes.empty())
    summary.heading += "\nNo baseline value changed.\n";
  if (update.kept > 0) {
    summary.heading +=
        "\n" + std::to_string(update.kept) +
        " measured entries kept as they were: the refresh agreed with them (noisy values inside their "
        "bands, other values unchanged).\n";
  }
  if (update.earlier_used + update.earlier_left_out > 0) {
    summary.heading += "\nNoisy bands pooled " + std::to_string(update.earlier_used) +
                       " recorded value(s) from the history; " + std::to_string(update.earlier_left_out) +
                       " fell outside the refresh's own band (before a change) and were left out.\n";
  }

  summary_table changed_table{
      "\n### Changed\n\n| case | kernel | metric | old | new | delta | new spread "
      "|\n|---|---|---|---|---|---|---|\n",
      {},
      1};
  summary_table added_table{
      "\n### Added\n\n| case | kernel | metric | value | class | spread |\n|---|---|---|---|---|---|\n",
      {},
      3};
  summary_table removed_table{
      "\n### Removed\n\n| case | kernel | metric | old value |\n|---|---|---|---|\n", {}, 2};
  for (const auto& c : update.changes) {
    const std::string key = "| `" + markdown_cell(c.instance) + "` | " + kernel_cell(c.kernel) + " | `" +
                            markdown_cell(c.metric) + "` | ";
    switch (c.what) {
      case baseline_change::kind::changed:
        changed_table.rows.push_back(
            key + format_value(c.before->value) + " | " + format_value(c.after->value) + " | " +
            delta_text(c.before->value, c.after->value) + " | " + spread_text(*c.after) + " |\n");
        break;
      case baseline_change::kind::added:
        added_table.rows.push_back(key + format_value(c.after->value) + " | " + to_string(c.after->cls) +
                                   " | " + spread_text(*c.after) + " |\n");
        break;
      case baseline_change::kind::removed:
        removed_table.rows.push_back(key + format_value(c.before->value) + " |\n");
        break;
    }
  }
  summary_table not_recorded{"\n### Not recorded\n\n", {}, 0};
  for (const auto& line : update.not_recorded)
    not_recorded.rows.push_back("- " + markdown_cell(line) + "\n");
  summary_table as_noisy{
      "\n### Recorded as noisy\n\nExact metrics whose repetitions differed (judged by the noise model's "
      "band, "
      "not exactly):\n\n",
      {},
      1};
  for (const auto& line : update.recorded_as_noisy)
    as_noisy.rows.push_back("- " + markdown_cell(line) + "\n");
  summary.tables = {std::move(changed_table), std::move(added_table), std::move(removed_table),
                    std::move(not_recorded), std::move(as_noisy)};
  return summary;
}

// The heading, then each table with its first listed[i] rows (a table with none listed is left out).
std::string render(const suite_summary& summary, const std::vector<std::size_t>& listed) {
  std::string md = summary.heading;
  for (std::size_t t = 0; t < summary.tables.size(); ++t) {
    if (listed[t] == 0)
      continue;
    md += summary.tables[t].head;
    for (std::size_t r = 0; r < listed[t]; ++r)
      md += summary.tables[t].rows[r];
  }
  return md;
}

std::vector<std::size_t> all_rows(const suite_summary& summary) {
  std::vector<std::size_t> listed;
  for (const auto& table : summary.tables)
    listed.push_back(table.rows.size());
  return listed;
}

}  // namespace

std::string render_change_summary_markdown(const baseline_update_result& update) {
  const suite_summary summary = summarize_changes(update, change_summary_kind::update);
  return render(summary, all_rows(summary));
}

std::string render_change_summaries_markdown(const std::vector<baseline_update_result>& updates,
                                             const markdown_budget& budget, change_summary_kind kind) {
  std::vector<suite_summary> summaries;
  std::vector<std::vector<std::size_t>> listed;
  std::string complete;
  std::size_t total_rows = 0;
  for (const auto& update : updates) {
    summaries.push_back(summarize_changes(update, kind));
    listed.push_back(all_rows(summaries.back()));
    complete += render(summaries.back(), listed.back()) + "\n";
    for (const std::size_t n : listed.back())
      total_rows += n;
  }
  if (budget.max_characters == 0 || complete.size() <= budget.max_characters)
    return complete;

  // Every heading stays, and the overflow line is never longer than with every entry left out.
  std::size_t used = markdown_overflow_line(total_rows, total_rows, "entries", budget.full_report).size();
  for (const auto& summary : summaries)
    used += summary.heading.size() + 1;
  // (urgency, suite, table): rows are taken in this order, each table's rows in file order.
  std::vector<std::tuple<int, std::size_t, std::size_t>> order;
  for (std::size_t s = 0; s < summaries.size(); ++s) {
    for (std::size_t t = 0; t < summaries[s].tables.size(); ++t) {
      listed[s][t] = 0;
      if (!summaries[s].tables[t].rows.empty())
        order.emplace_back(summaries[s].tables[t].urgency, s, t);
    }
  }
  std::stable_sort(order.begin(), order.end());
  std::size_t shown = 0;
  bool full = false;
  for (const auto& [urgency, s, t] : order) {
    const summary_table& table = summaries[s].tables[t];
    for (const auto& row : table.rows) {
      const std::size_t cost = row.size() + (listed[s][t] == 0 ? table.head.size() : 0);
      if (used + cost > budget.max_characters) {
        full = true;
        break;
      }
      used += cost;
      ++listed[s][t];
      ++shown;
    }
    if (full)
      break;
  }
  std::string md;
  for (std::size_t s = 0; s < summaries.size(); ++s)
    md += render(summaries[s], listed[s]) + "\n";
  return md + markdown_overflow_line(total_rows - shown, total_rows, "entries", budget.full_report);
}

}  // namespace counterguard
