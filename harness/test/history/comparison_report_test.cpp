// SPDX-License-Identifier: Apache-2.0
// What `counterguard compare` prints and writes for the H200 recording and its edited copy.
#include "counterguard/history/comparison_report.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "comparison_fixture.hpp"

namespace counterguard::test {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Whether `parts` appear in `text` in this order, separated by anything.
bool in_order(const std::string& text, const std::vector<std::string>& parts) {
  std::size_t at = 0;
  for (const auto& part : parts) {
    at = text.find(part, at);
    if (at == std::string::npos)
      return false;
    at += part.size();
  }
  return true;
}

// The console line of one metric.
std::string line_of(const std::string& text, const std::string& instance, const std::string& metric) {
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    if (line.rfind(instance + " ", 0) == 0 && contains(line, " total ") && contains(line, " " + metric + " "))
      return line;
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return {};
}

TEST(comparison_report, the_console_shows_each_moved_metric_with_values_deltas_and_finding) {
  const std::string text = render_comparison_console(compare_fixture(true), {});
  EXPECT_TRUE(
      contains(text, "A: a.json  commit 6955cc2194e6, GH100-132sm-cuda13, run, started 2026-11-30T03:22:42Z"))
      << text;
  EXPECT_TRUE(contains(text, "B: b.json  commit b0b0b0b0b0b0")) << text;
  const std::string exact = line_of(text, exact_case, "shared_store_bank_conflicts");
  EXPECT_TRUE(in_order(exact, {"exact", "4063232", "4063233", "+1", "+2.46e-05%", "CHANGED"})) << text;
  const std::string slight = line_of(text, slight_case, "shared_store_bank_conflicts_hw");
  EXPECT_TRUE(in_order(slight, {"noisy", "5669", "5700", "+31", "+0.547%", "within noise (z=+0.3, n=6)"}))
      << slight;
  const std::string great = line_of(text, great_case, "shared_store_bank_conflicts_hw");
  EXPECT_TRUE(contains(great, "LIKELY CHANGE (z=+")) << great;
  EXPECT_TRUE(contains(line_of(text, thinned_case, "global_atomic_requests"), "only in A")) << text;
  EXPECT_TRUE(contains(text, "case only in A: occupancy/block_32\n")) << text;
  EXPECT_TRUE(contains(text, "case status changed: coalescing/strided?stride=2: passed -> failed\n")) << text;
  EXPECT_TRUE(
      contains(text,
               "2 changed (exact/static), 2 within noise, 2 likely changes, 0 without noise estimate, "
               "2 only in A, 0 only in B; cases only in A: 1, only in B: 0, status changed: 1"))
      << text;
  // Unchanged metrics only with --all.
  EXPECT_TRUE(line_of(text, "coalescing/contiguous", "global_load_sectors_per_request").empty());
  comparison_report_options all;
  all.show_unchanged = true;
  EXPECT_TRUE(contains(line_of(render_comparison_console(compare_fixture(true), all), "coalescing/contiguous",
                               "global_load_sectors_per_request"),
                       "unchanged"));
}

TEST(comparison_report, without_a_history_the_console_says_there_is_no_noise_estimate) {
  const std::string text = render_comparison_console(compare_fixture(false), {});
  EXPECT_TRUE(contains(text, "noise: no history given")) << text;
  EXPECT_TRUE(contains(line_of(text, great_case, "shared_store_bank_conflicts_hw"),
                       "no noise estimate (0 earlier values)"))
      << text;
}

TEST(comparison_report, markdown_has_the_sides_the_summary_and_a_row_per_moved_metric) {
  const std::string md = render_comparison_markdown(compare_fixture(true), {});
  EXPECT_TRUE(contains(md, "## counterguard compare\n")) << md;
  EXPECT_TRUE(
      contains(md, "| A | `a.json` | `6955cc2194e6` | GH100-132sm-cuda13 | run | 2026-11-30T03:22:42Z |"))
      << md;
  EXPECT_TRUE(contains(md, "**" + comparison_summary_line(compare_fixture(true)) + "**")) << md;
  EXPECT_TRUE(contains(md, "| case | kernel | metric | class | A | B | delta | rel | finding |")) << md;
  EXPECT_TRUE(
      contains(md,
               "| `transpose/smem_unpadded?n=2048` | `total` | `shared_store_bank_conflicts` | exact | "
               "4063232 | 4063233 | +1 | +2.46e-05% | CHANGED |"))
      << md;
  EXPECT_TRUE(contains(md, "### Cases only in A\n\n- `occupancy/block_32`\n")) << md;
  EXPECT_TRUE(contains(md, "### Case status changed\n\n- `coalescing/strided?stride=2: passed -> failed`"))
      << md;
}

TEST(comparison_report, json_lists_every_compared_metric_with_its_finding) {
  const run_comparison c = compare_fixture(true);
  const nlohmann::json j = comparison_json(c);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["a"]["label"], "a.json");
  EXPECT_EQ(j["a"]["history_run_id"], nullptr);
  EXPECT_EQ(j["b"]["git_commit"], "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0");
  EXPECT_EQ(j["noise"]["history"], true);
  EXPECT_EQ(j["noise"]["z_threshold"], 3.5);
  EXPECT_EQ(j["metrics"].size(), c.metrics.size());
  EXPECT_EQ(j["summary"]["metrics"], c.metrics.size());
  EXPECT_EQ(j["summary"]["flagged"], 4);
  EXPECT_EQ(j["summary"]["changed"], 2);
  EXPECT_EQ(j["summary"]["likely_change"], 2);
  EXPECT_EQ(j["summary"]["unchanged"], c.count(change_finding::unchanged));
  EXPECT_EQ(j["cases_only_in_a"], nlohmann::json::array({dropped_case}));
  EXPECT_EQ(j["status_changes"][0]["b"], "failed");
  bool found = false;
  for (const auto& m : j["metrics"]) {
    if (m["instance"] == slight_case && m["kernel"] == "total" &&
        m["metric"] == "shared_store_bank_conflicts_hw") {
      found = true;
      EXPECT_EQ(m["class"], "noisy");
      EXPECT_EQ(m["a"], 5669);
      EXPECT_EQ(m["b"], 5700);
      EXPECT_EQ(m["delta"], 31);
      EXPECT_EQ(m["finding"], "within_noise");
      EXPECT_EQ(m["flagged"], false);
      EXPECT_EQ(m["noise_samples"], 6);
      EXPECT_NEAR(m["z"].get<double>(), 0.3288, 1e-3);
    }
    if (m["instance"] == thinned_case && m["metric"] == "global_atomic_requests") {
      EXPECT_EQ(m["finding"], "only_in_a");
      EXPECT_EQ(m["b"], nullptr);
      EXPECT_EQ(m["delta"], nullptr);
    }
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace counterguard::test
