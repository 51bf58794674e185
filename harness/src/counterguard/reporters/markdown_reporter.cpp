// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/markdown_reporter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/reporters/summary_text.hpp"

namespace counterguard {
namespace {

constexpr const char* blame_verdict = "source line";

struct item {
  int rank = 0;  // smaller: more urgent
  std::string verdict;
  std::string instance;
  std::string metric;
  std::string expected;
  std::string measured;
  std::string note;
  std::string link =
      {};  // a URL the note's first word (a blamed line's place) links to (initialised: optional)
};

// The details cell; with a link, its first word (the place) is the link's text.
std::string linked_note(const item& i) {
  if (i.link.empty())
    return markdown_cell(i.note);
  const auto space = i.note.find(' ');
  const std::string place = i.note.substr(0, space);
  const std::string rest = space == std::string::npos ? "" : i.note.substr(space);
  return "[" + markdown_cell(place) + "](" + i.link + ")" + markdown_cell(rest);
}

// As the other reports word it, but "failed" for a failed expectation, as the counts line says.
std::string verdict_label(const check_outcome& check, const shown_check& shown) {
  return check.verdict == check_verdict::fail ? "failed" : shown.verdict;
}

std::string code(const std::string& text) {
  return text.empty() ? std::string() : "`" + markdown_cell(text) + "`";
}

// heading, the table of `rows` (or `all_passed`), `counts`, `skipped_block`; when that is over the
// budget: the rows that fit (most urgent first), a line saying how many were left out, the counts, and the
// skipped cases if they still fit (else one line counting them).
std::string assemble_within_budget(const std::string& heading, const std::string& table_head,
                                   const std::vector<std::string>& rows, const std::string& counts,
                                   const std::string& skipped_block, std::size_t skipped,
                                   const markdown_budget& budget, const std::string& all_passed) {
  auto table = [&](std::size_t listed, const std::string& overflow) {
    if (rows.empty())
      return all_passed + "\n\n";
    std::string text = table_head;
    for (std::size_t i = 0; i < listed; ++i)
      text += rows[i];
    return text + "\n" + (overflow.empty() ? std::string() : overflow + "\n");
  };
  std::string complete = heading + table(rows.size(), {}) + counts + skipped_block;
  if (budget.max_characters == 0 || complete.size() <= budget.max_characters)
    return complete;

  const std::string skipped_line =
      skipped == 0 ? std::string()
                   : "\n" + markdown_overflow_line(skipped, skipped, "skipped cases", budget.full_report);
  // The overflow line is never longer than with every row left out.
  const std::size_t overflow_reserve =
      rows.empty()
          ? 0
          : markdown_overflow_line(rows.size(), rows.size(), "entries", budget.full_report).size() + 1;
  std::size_t used =
      heading.size() + table(0, {}).size() + overflow_reserve + counts.size() + skipped_line.size();
  std::size_t listed = 0;
  while (listed < rows.size() && used + rows[listed].size() <= budget.max_characters) {
    used += rows[listed].size();
    ++listed;
  }
  const std::string overflow =
      listed == rows.size()
          ? std::string()
          : markdown_overflow_line(rows.size() - listed, rows.size(), "entries", budget.full_report);
  const bool skipped_fit = used - skipped_line.size() + skipped_block.size() <= budget.max_characters;
  return heading + table(listed, overflow) + counts + (skipped_fit ? skipped_block : skipped_line);
}

}  // namespace

std::string render_markdown_report(const judged_run& run, const markdown_budget& budget,
                                   const source_links& links) {
  const run_results& results = run.results;
  std::optional<repository_paths> paths;
  if (!links.url_base.empty())
    paths.emplace(find_source_root(links.source_root));
  const run_summary& summary = run.summary;
  std::vector<item> items;
  std::vector<const case_result*> skipped;
  for (std::size_t position = 0; position < results.cases.size(); ++position) {
    const case_result& result = results.cases[position];
    const shown_case& shown = run.shown[position];
    if (result.status == case_status::skipped)
      skipped.push_back(&result);
    if (result.status == case_status::error) {
      items.push_back({0, "error", result.instance, "", "", "", result.status_reason});
    }
    if (result.verified && !*result.verified) {
      items.push_back({1, "wrong output", result.instance, "", "", "", result.verification_message});
    }
    if (result.unverified) {
      items.push_back(
          {7, "unverified", result.instance, "", "", "",
           "the variant registers no verification: its counters were measured, its output unchecked"});
    }
    for (std::size_t i = 0; i < result.checks.size(); ++i) {
      const check_outcome& check = result.checks[i];
      const shown_check& words = shown.checks[i];
      if (check.verdict == check_verdict::pass)
        continue;
      items.push_back({words.rank, verdict_label(check, words), result.instance, words.metric, check.expected,
                       words.measured_in_full.empty() ? "-" : words.measured_in_full, check.message});
    }
    if (result.blame) {
      // Right under the case's failing checks: the source lines its regressed counters come from.
      const case_blame& blame = *result.blame;
      if (!blame.note.empty())
        items.push_back({3, blame_verdict, result.instance, shown.regressed, "", "", blame.note});
      for (std::size_t i = 0; i < blame.lines.size(); ++i) {
        const blamed_source_line& line = blame.lines[i];
        const std::string& kinds = shown.blame_lines[i].kind_change;
        items.push_back({3, blame_verdict, result.instance, line.metric,
                         line.before ? std::to_string(*line.before) : "-", std::to_string(line.after),
                         shown.blame_lines[i].place + "  " + line.sass + (kinds.empty() ? "" : "  " + kinds) +
                             "  (" + line.function + ")"});
        if (paths) {
          const auto colon = line.place.rfind(':');
          const auto path = paths->relative(line.file);
          if (path && colon != std::string::npos)
            items.back().link = line_url(links.url_base, *path, std::atoi(line.place.c_str() + colon + 1));
        }
      }
    }
  }
  std::stable_sort(items.begin(), items.end(), [](const item& a, const item& b) { return a.rank < b.rank; });

  const std::string heading = "## counterguard: " + verdict_heading(run) + "\n\n";
  const std::string table_head =
      "| verdict | case | metric | expected | measured | details |\n|---|---|---|---|---|---|\n";
  std::vector<std::string> rows;
  rows.reserve(items.size());
  for (const auto& i : items) {
    const bool bold = i.rank <= 4 && i.verdict != blame_verdict;
    rows.push_back("| " + (bold ? "**" + i.verdict + "**" : i.verdict) + " | " + code(i.instance) + " | " +
                   code(i.metric) + " | " + markdown_cell(i.expected) + " | " + markdown_cell(i.measured) +
                   " | " + linked_note(i) + " |\n");
  }
  std::string md;
  md += fmt::format("**{} cases**: {} passed, {} failed, {} skipped, {} errors.  \n", summary.cases,
                    summary.passed, summary.failed, summary.skipped, summary.errors);
  md += fmt::format("**{} checks**: {} pass, {} failed, {} regression, {} improvement, {} new, {} missing.\n",
                    summary.checks, summary.check_pass, summary.check_fail, summary.check_regression,
                    summary.check_improvement, summary.check_new, summary.check_missing);
  if (run.unmeasured)
    md += "\n**" + markdown_cell(run.static_checks_only) + "**.\n";
  if (summary.check_improvement != 0 || summary.check_new != 0) {
    md += "\nImprovements and new metrics are recorded with `counterguard baseline update`.\n";
  }
  if (!results.metadata.gpu_key.empty()) {
    md += "\nGPU: " + markdown_cell(results.metadata.device.name) + " (`" +
          markdown_cell(results.metadata.gpu_key) + "`)\n";
  }
  std::string skipped_block;
  if (!skipped.empty()) {
    skipped_block += "\n<details><summary>" + std::to_string(skipped.size()) + " skipped</summary>\n\n";
    for (const auto* result : skipped) {
      skipped_block += "- " + code(result->instance) + ": " + markdown_cell(result->status_reason) + "\n";
    }
    skipped_block += "\n</details>\n";
  }
  // A run that profiled nothing checked no counter: "every check" would overstate it.
  return assemble_within_budget(heading, table_head, rows, md, skipped_block, skipped.size(), budget,
                                run.unmeasured ? "Every static check passed." : "Every check passed.");
}

void write_markdown_report(const std::string& path, const judged_run& run, const markdown_budget& budget) {
  write_file_atomically(path, render_markdown_report(run, budget));
}

}  // namespace counterguard
