// SPDX-License-Identifier: Apache-2.0
#include "counterguard/history/comparison_report.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "counterguard/core/markdown_cell.hpp"
#include "counterguard/core/text_table.hpp"
#include "counterguard/core/value_format.hpp"

namespace counterguard {
namespace {

using nlohmann::json;

// Version of the compare JSON (docs/history.md). Bump on any incompatible change.
constexpr int comparison_json_version = 1;

std::string short_commit(const std::string& commit) {
  return commit.size() == 40 ? commit.substr(0, 12) : commit;
}

std::string optional_value(const std::optional<double>& value) {
  return value ? format_value(*value) : "-";
}

std::string signed_value(const std::optional<double>& value) {
  if (!value)
    return "-";
  return (*value > 0 ? "+" : "") + format_value(*value);
}

std::string relative_text(const std::optional<double>& relative) {
  return relative ? fmt::format("{:+.3g}%", *relative * 100.0) : "-";
}

std::string z_text(double z) {
  if (std::isinf(z))
    return z > 0 ? "+inf" : "-inf";
  return fmt::format("{:+.1f}", z);
}

std::string finding_text(const metric_change& change) {
  switch (change.finding) {
    case change_finding::unchanged:
      return "unchanged";
    case change_finding::changed:
      return "CHANGED";
    case change_finding::within_noise:
      return fmt::format("within noise (z={}, n={})", z_text(*change.z), change.noise_samples);
    case change_finding::likely_change:
      return fmt::format("LIKELY CHANGE (z={}, n={})", z_text(*change.z), change.noise_samples);
    case change_finding::no_noise_estimate:
      return fmt::format("no noise estimate ({} earlier values)", change.noise_samples);
    case change_finding::only_in_a:
      return "only in A";
    case change_finding::only_in_b:
      return "only in B";
  }
  return "unchanged";
}

std::vector<const metric_change*> shown(const run_comparison& comparison,
                                        const comparison_report_options& options) {
  std::vector<const metric_change*> rows;
  for (const auto& change : comparison.metrics) {
    if (options.show_unchanged || change.finding != change_finding::unchanged)
      rows.push_back(&change);
  }
  return rows;
}

std::string side_line(const std::string& name, const std::string& label,
                      const std::optional<std::int64_t>& run_id, const run_metadata& m) {
  std::string text = name + ": " + label;
  if (run_id && label != "run " + std::to_string(*run_id))
    text += " (run " + std::to_string(*run_id) + ")";
  text += "  commit " + short_commit(m.git_commit) + ", " + m.gpu_key + ", " + m.mode + ", started " +
          m.started_at;
  return text;
}

std::string noise_line(const run_comparison& comparison) {
  if (!comparison.history_consulted)
    return "noise: no history given: changed noisy metrics have no noise estimate (--history DB gives one)";
  return fmt::format(
      "noise: robust z of each noisy change against B's GPU key's earlier values in the history; |z| >= {} "
      "is a "
      "likely change",
      format_value(comparison.z_threshold));
}

std::string status_change_text(const case_status_change& change) {
  return change.instance + ": " + to_string(change.a) + " -> " + to_string(change.b);
}

json optional_json(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? json(*value) : json(nullptr);
}

json side_json(const std::string& label, const std::optional<std::int64_t>& run_id, const run_metadata& m) {
  return json{{"label", label},
              {"history_run_id", run_id ? json(*run_id) : json(nullptr)},
              {"gpu_key", m.gpu_key},
              {"gpu_name", m.device.name},
              {"git_commit", m.git_commit},
              {"started_at", m.started_at},
              {"mode", m.mode},
              {"counterguard_version", m.counterguard_version}};
}

}  // namespace

std::string comparison_summary_line(const run_comparison& c) {
  std::string line = fmt::format(
      "{} metrics compared: {} unchanged, {} changed (exact/static), {} within noise, {} likely changes, {} "
      "without "
      "noise estimate, {} only in A, {} only in B",
      c.metrics.size(), c.count(change_finding::unchanged), c.count(change_finding::changed),
      c.count(change_finding::within_noise), c.count(change_finding::likely_change),
      c.count(change_finding::no_noise_estimate), c.count(change_finding::only_in_a),
      c.count(change_finding::only_in_b));
  line += fmt::format("; cases only in A: {}, only in B: {}, status changed: {}", c.cases_only_in_a.size(),
                      c.cases_only_in_b.size(), c.status_changes.size());
  return line;
}

std::string render_comparison_console(const run_comparison& comparison,
                                      const comparison_report_options& options) {
  std::string text = side_line("A", comparison.a_label, comparison.a_run_id, comparison.a_metadata) + "\n" +
                     side_line("B", comparison.b_label, comparison.b_run_id, comparison.b_metadata) + "\n" +
                     noise_line(comparison) + "\n";
  std::vector<std::vector<std::string>> rows{
      {"CASE", "KERNEL", "METRIC", "CLASS", "A", "B", "DELTA", "REL", "FINDING"}};
  for (const auto* change : shown(comparison, options)) {
    rows.push_back({change->instance, change->kernel, change->metric, to_string(change->cls),
                    optional_value(change->a), optional_value(change->b), signed_value(change->delta),
                    relative_text(change->relative), finding_text(*change)});
  }
  if (rows.size() > 1)
    text += align_columns(rows);
  for (const auto& instance : comparison.cases_only_in_a)
    text += "case only in A: " + instance + "\n";
  for (const auto& instance : comparison.cases_only_in_b)
    text += "case only in B: " + instance + "\n";
  for (const auto& change : comparison.status_changes)
    text += "case status changed: " + status_change_text(change) + "\n";
  text += comparison_summary_line(comparison) + "\n";
  return text;
}

std::string render_comparison_markdown(const run_comparison& comparison,
                                       const comparison_report_options& options) {
  std::string text =
      "## counterguard compare\n\n| | results | commit | GPU key | mode | started "
      "|\n|---|---|---|---|---|---|\n";
  const auto side = [&](const char* name, const std::string& label, const run_metadata& m) {
    text += fmt::format("| {} | `{}` | `{}` | {} | {} | {} |\n", name, markdown_cell(label),
                        short_commit(m.git_commit), markdown_cell(m.gpu_key), markdown_cell(m.mode),
                        markdown_cell(m.started_at));
  };
  side("A", comparison.a_label, comparison.a_metadata);
  side("B", comparison.b_label, comparison.b_metadata);
  text += "\n" + noise_line(comparison) + "\n\n**" + comparison_summary_line(comparison) + "**\n";
  const auto rows = shown(comparison, options);
  if (!rows.empty()) {
    text +=
        "\n| case | kernel | metric | class | A | B | delta | rel | finding |\n"
        "|---|---|---|---|---:|---:|---:|---:|---|\n";
    for (const auto* change : rows) {
      text += fmt::format("| `{}` | `{}` | `{}` | {} | {} | {} | {} | {} | {} |\n",
                          markdown_cell(change->instance), markdown_cell(change->kernel),
                          markdown_cell(change->metric), to_string(change->cls), optional_value(change->a),
                          optional_value(change->b), signed_value(change->delta),
                          relative_text(change->relative), finding_text(*change));
    }
  }
  const auto list = [&](const char* heading, const std::vector<std::string>& items) {
    if (items.empty())
      return;
    text += fmt::format("\n### {}\n\n", heading);
    for (const auto& item : items)
      text += "- `" + markdown_cell(item) + "`\n";
  };
  list("Cases only in A", comparison.cases_only_in_a);
  list("Cases only in B", comparison.cases_only_in_b);
  std::vector<std::string> status_changes;
  for (const auto& change : comparison.status_changes)
    status_changes.push_back(status_change_text(change));
  list("Case status changed", status_changes);
  return text;
}

json comparison_json(const run_comparison& c) {
  json metrics = json::array();
  for (const auto& m : c.metrics) {
    metrics.push_back({{"instance", m.instance},
                       {"kernel", m.kernel},
                       {"metric", m.metric},
                       {"class", to_string(m.cls)},
                       {"a", optional_json(m.a)},
                       {"b", optional_json(m.b)},
                       {"delta", optional_json(m.delta)},
                       {"relative", optional_json(m.relative)},
                       {"finding", to_string(m.finding)},
                       {"flagged", m.flagged()},
                       {"noise_samples", m.noise_samples},
                       {"noise_sigma", optional_json(m.noise_sigma)},
                       {"z", optional_json(m.z)}});
  }
  json status_changes = json::array();
  for (const auto& s : c.status_changes)
    status_changes.push_back({{"instance", s.instance}, {"a", to_string(s.a)}, {"b", to_string(s.b)}});
  json summary{{"metrics", c.metrics.size()}, {"flagged", c.flagged()}};
  for (auto finding : {change_finding::unchanged, change_finding::changed, change_finding::within_noise,
                       change_finding::likely_change, change_finding::no_noise_estimate,
                       change_finding::only_in_a, change_finding::only_in_b}) {
    summary[to_string(finding)] = c.count(finding);
  }
  summary["cases_only_in_a"] = c.cases_only_in_a.size();
  summary["cases_only_in_b"] = c.cases_only_in_b.size();
  summary["status_changes"] = c.status_changes.size();
  return json{{"schema_version", comparison_json_version},
              {"a", side_json(c.a_label, c.a_run_id, c.a_metadata)},
              {"b", side_json(c.b_label, c.b_run_id, c.b_metadata)},
              {"noise", {{"history", c.history_consulted}, {"z_threshold", c.z_threshold}}},
              {"summary", summary},
              {"metrics", metrics},
              {"cases_only_in_a", c.cases_only_in_a},
              {"cases_only_in_b", c.cases_only_in_b},
              {"status_changes", status_changes}};
}

}  // namespace counterguard
