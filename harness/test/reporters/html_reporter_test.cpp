// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/html_reporter.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <regex>

#include "counterguard/reporters/trend_plot.hpp"
#include "report_test_support.hpp"

namespace counterguard {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

// The part of the page between two markers (a section), so positions are compared within it.
std::string section(const std::string& html, const std::string& id) {
  const auto begin = html.find("<section id=\"" + id + "\">");
  const auto end = html.find("</section>", begin);
  return begin == std::string::npos ? std::string() : html.substr(begin, end - begin);
}

history_point point(const std::string& commit, double value, std::optional<double> low = {},
                    std::optional<double> high = {}, const std::string& verdict = "pass") {
  history_point p;
  p.run_id = "run-" + commit;
  p.git_commit = commit + std::string(40 - commit.size(), '0');
  p.started_at = "2025-01-0" + std::to_string(commit.size() % 9 + 1) + "T00:00:00Z";
  p.value = value;
  p.band_low = low;
  p.band_high = high;
  p.verdict = verdict;
  return p;
}

metric_history noisy_series() {
  metric_history h;
  h.gpu_key = "GH100-132sm-cuda13";
  h.instance = "transpose/naive?n=2048";
  h.kernel = "total";
  h.metric = "duration_ns";
  h.cls = metric_class::noisy;
  h.points = {point("aaaaaaa1", 1000, 900, 1100), point("bbbbbbb2", 1010, 900, 1100),
              point("ccccccc3", 1500, 900, 1100, "regression")};
  return h;
}

metric_history exact_series() {
  metric_history h;
  h.gpu_key = "GH100-132sm-cuda13";
  h.instance = "transpose/smem?pad=1,n=2048";
  h.kernel = "total";
  h.metric = "shared_store_bank_conflicts";
  h.cls = metric_class::exact;
  h.points = {point("aaaaaaa1", 0, 0, 0), point("bbbbbbb2", 0, 0, 0),
              point("ccccccc3", 32, 0, 0, "regression")};
  return h;
}

TEST(html_escape, escapes_markup_and_quotes) {
  EXPECT_EQ(html_escape(R"(a<b & "c" 'd'>)"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  EXPECT_EQ(html_escape("t/a?n=64,pad=1"), "t/a?n=64,pad=1");
}

TEST(html_report, is_one_complete_document) {
  const std::string html = render_html_report(judge_run(test::sample_run(), false), {noisy_series()});
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0U);
  EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos);
  EXPECT_NE(html.find("</html>\n"), std::string::npos);
  EXPECT_EQ(count(html, "<details"), count(html, "</details>"));
  EXPECT_EQ(count(html, "<table"), count(html, "</table>"));
  EXPECT_EQ(count(html, "<svg"), count(html, "</svg>"));
  EXPECT_EQ(count(html, "<section"), count(html, "</section>"));
}

TEST(html_report, escapes_every_instance_name_and_reason) {
  const std::string html = render_html_report(judge_run(test::sample_run(), false), {});
  EXPECT_EQ(html.find("atomics/hist<\"x\">"), std::string::npos);
  EXPECT_NE(html.find("atomics/hist&lt;&quot;x&quot;&gt;"), std::string::npos);
  EXPECT_EQ(html.find("illegal address <at 0x10>"), std::string::npos);
  EXPECT_NE(html.find("illegal address &lt;at 0x10&gt;"), std::string::npos);
  EXPECT_NE(html.find("needs clusters &amp; sm_90"), std::string::npos);
}

TEST(html_report, escapes_names_inside_the_plots) {
  metric_history series = noisy_series();
  series.instance = "s/c?n=<1>&x=\"2\"";
  const std::string html = render_html_report(judge_run(test::sample_run(), false), {series});
  EXPECT_EQ(html.find("s/c?n=<1>"), std::string::npos);
  EXPECT_NE(html.find("s/c?n=&lt;1&gt;&amp;x=&quot;2&quot;"), std::string::npos);
}

TEST(html_report, the_header_says_the_verdict_gpu_commit_and_counts) {
  run_results results = test::sample_run();
  results.metadata.git_commit = "6955cc2194e6859188c19fb57c589d1f2213125b";
  results.metadata.started_at = "2026-11-30T03:22:42Z";
  const std::string html = render_html_report(judge_run(results, false), {});
  const std::string header = html.substr(0, html.find("</header>"));
  EXPECT_NE(header.find(">FAILED<"), std::string::npos);
  EXPECT_NE(header.find("NVIDIA H200"), std::string::npos);
  EXPECT_NE(header.find("GH100-132sm-cuda13"), std::string::npos);
  EXPECT_NE(header.find(">6955cc2<"), std::string::npos);
  EXPECT_NE(header.find("2026-11-30T03:22:42Z"), std::string::npos);
  // 4 cases: 1 passed, 1 failed, 1 skipped, 1 error.
  EXPECT_NE(header.find("<tr><td class=\"n\">4</td><td class=\"n\">1</td><td class=\"n\">1</td><td "
                        "class=\"n\">1</td><td class=\"n\">1</td>"),
            std::string::npos)
      << header;
}

TEST(html_report, a_passing_run_says_passed) {
  run_results results = test::sample_run();
  results.cases.resize(1);
  const std::string html = render_html_report(judge_run(results, false), {});
  EXPECT_NE(html.find(">PASSED<"), std::string::npos);
  EXPECT_NE(section(html, "attention").find("Nothing: every check passed."), std::string::npos);
}

TEST(html_report, lists_what_needs_attention_most_urgent_first) {
  run_results results = test::sample_run();
  case_result improved;
  improved.instance = "s/improved";
  improved.suite = "s";
  improved.checks.push_back(
      test::make_check("m_improved", "10 (exact)", 5, check_verdict::improvement, false, 10.0));
  results.cases.insert(results.cases.begin(), improved);  // first in the run, last in urgency
  case_result wrong;
  wrong.instance = "s/wrong";
  wrong.suite = "s";
  wrong.verified = false;
  wrong.verification_message = "out[3] = 7";
  results.cases.push_back(wrong);

  const std::string attention = section(render_html_report(judge_run(results, false), {}), "attention");
  const auto error = attention.find("illegal address");
  const auto wrong_output = attention.find("out[3] = 7");
  const auto failed = attention.find("shared_store_bank_conflicts says fail");
  const auto regression = attention.find("duration_ns says regression");
  const auto improvement = attention.find("m_improved");
  ASSERT_NE(improvement, std::string::npos) << attention;
  EXPECT_LT(error, wrong_output);
  EXPECT_LT(wrong_output, failed);
  EXPECT_LT(failed, regression);
  EXPECT_LT(regression, improvement);
  EXPECT_EQ(attention.find("global_load_sectors"), std::string::npos) << "a new metric is not urgent";
  EXPECT_EQ(attention.find("says pass"), std::string::npos);
}

TEST(html_report, lists_every_case_in_collapsible_blocks) {
  const run_results results = test::sample_run();
  const std::string suites = section(render_html_report(judge_run(results, false), {}), "suites");
  EXPECT_EQ(count(suites, "<details class=\"suite"), 3U);
  EXPECT_EQ(count(suites, "<details class=\"case"), results.cases.size());
  // Failing cases start open, passing ones closed.
  EXPECT_NE(suites.find("<details class=\"case failing\" id=\"case-1\" open>"), std::string::npos) << suites;
  EXPECT_NE(suites.find("<details class=\"case\" id=\"case-0\"><summary>"), std::string::npos) << suites;
}

TEST(html_report, the_first_picture_has_a_row_per_check_and_per_case_that_did_not_run) {
  const run_results results = test::sample_run();
  const std::string html = render_html_report(judge_run(results, false), {});
  const std::string standing = section(html, "standing");
  EXPECT_LT(html.find("<section id=\"standing\">"), html.find("<section id=\"attention\">"));
  std::size_t checks = 0;
  for (const auto& c : results.cases)
    checks += c.checks.size();
  EXPECT_EQ(count(standing, "<tr class=\""), checks + 2) << standing;  // + the skipped and the errored case
  EXPECT_EQ(count(standing, "<tbody id=\"standing-"), results.cases.size());
  EXPECT_EQ(count(standing, "<svg viewBox=\"0 0 120 12\">"), checks);
}

TEST(html_report, the_first_picture_puts_failing_cases_first_then_changed_ones) {
  run_results results = test::sample_run();
  case_result fine;
  fine.instance = "s/fine";
  fine.suite = "s";
  fine.checks.push_back(test::make_check("m", "== 1", 1, check_verdict::pass, false));
  results.cases.insert(results.cases.begin(), fine);
  const std::string standing = section(render_html_report(judge_run(results, false), {}), "standing");
  const auto failed = standing.find("transpose/naive?n=2048");
  const auto errored = standing.find("atomics/hist");
  const auto changed = standing.find("transpose/smem?pad=1,n=2048");  // a new metric, nothing failing
  const auto passed = standing.find("s/fine");
  const auto skipped = standing.find("dsmem/cluster");
  EXPECT_LT(failed, errored);
  EXPECT_LT(errored, changed);
  EXPECT_LT(changed, passed);
  EXPECT_LT(passed, skipped);
  EXPECT_NE(skipped, std::string::npos);
  EXPECT_NE(standing.find("<tbody id=\"standing-2\" class=\"bad\">"), std::string::npos) << standing;
  EXPECT_NE(standing.find("<tbody id=\"standing-1\" class=\"note\">"), std::string::npos) << standing;
  // Within the failing case its rows keep the check order, failing ones first.
  EXPECT_LT(standing.find("shared_store_bank_conflicts", failed), standing.find("duration_ns", failed));
}

TEST(html_report, the_first_picture_lists_a_one_kernel_cases_checks_once) {
  run_results results = test::sample_run();
  case_result& c = results.cases[0];
  c.kernels.resize(1);
  c.kernels[0].function = "k";
  check_outcome per_kernel = c.checks[1];
  per_kernel.kernel = "k";
  c.checks.push_back(per_kernel);
  const std::string standing = section(render_html_report(judge_run(results, false), {}), "standing");
  EXPECT_EQ(count(standing, "global_load_sectors"), 1U) << standing;
  c.kernels.resize(2);
  const std::string two = section(render_html_report(judge_run(results, false), {}), "standing");
  EXPECT_EQ(count(two, "global_load_sectors"), 2U) << two;
}

TEST(html_report, rounds_bands_to_six_significant_digits) {
  run_results results = test::sample_run();
  results.cases[1].checks[1].expected = "1000.123456789 in [900.987654321, 1100.5]";
  const std::string html = render_html_report(judge_run(results, false), {});
  EXPECT_EQ(html.find("900.987654321"), std::string::npos);
  EXPECT_NE(section(html, "standing").find("1000.12 in [900.988, 1100.5]"), std::string::npos);
  EXPECT_NE(section(html, "attention").find("1000.12 in [900.988, 1100.5]"), std::string::npos);
}

TEST(html_report, names_the_yaml_line_of_a_failed_expectation) {
  run_results results = test::sample_run();
  results.cases[1].checks[0].source = source_location{"cases/transpose.yaml", 42, 7};
  const std::string html = render_html_report(judge_run(results, false), {});
  EXPECT_NE(section(html, "attention").find("cases/transpose.yaml:42"), std::string::npos);
}

TEST(html_report, draws_one_plot_per_history_series) {
  const std::vector<metric_history> history{noisy_series(), exact_series(), noisy_series()};
  const std::string trends =
      section(render_html_report(judge_run(test::sample_run(), false), history), "trends");
  EXPECT_EQ(count(trends, "<svg class=\"cg-plot"), 3U);
  EXPECT_EQ(count(trends, "<figure"), 3U);
}

TEST(html_report, says_when_there_is_no_history) {
  const std::string trends = section(render_html_report(judge_run(test::sample_run(), false), {}), "trends");
  EXPECT_EQ(count(trends, "<svg"), 0U);
  EXPECT_NE(trends.find("No history"), std::string::npos);
}

TEST(html_report, puts_series_failing_now_before_the_others) {
  metric_history fine = exact_series();
  fine.instance = "s/fine";
  for (auto& p : fine.points) {
    p.value = p.git_commit[0] == 'b' ? 1 : 0;
    p.verdict = "pass";
    p.band_low.reset();
    p.band_high.reset();
  }
  const std::string trends =
      section(render_html_report(judge_run(test::sample_run(), false), {fine, noisy_series()}), "trends");
  ASSERT_NE(trends.find("s/fine"), std::string::npos) << trends;
  EXPECT_LT(trends.find("transpose/naive?n=2048"), trends.find("s/fine"));
  EXPECT_NE(trends.find("<figure id=\"trend-1\" class=\"failing\">"), std::string::npos);
}

TEST(html_report, plots_only_metrics_with_two_recorded_runs) {
  metric_history one_run = noisy_series();
  one_run.points.resize(1);
  metric_history two_runs = noisy_series();
  two_runs.metric = "dram_read_bytes";
  two_runs.points.resize(2);
  const std::string trends =
      section(render_html_report(judge_run(test::sample_run(), false), {one_run, two_runs}), "trends");
  EXPECT_EQ(count(trends, "<svg class=\"cg-plot"), 1U) << trends;
  EXPECT_NE(trends.find("dram_read_bytes"), std::string::npos);
  const std::string only_one =
      section(render_html_report(judge_run(test::sample_run(), false), {one_run}), "trends");
  EXPECT_EQ(count(only_one, "<svg"), 0U);
  EXPECT_NE(only_one.find("a metric is plotted once it has two"), std::string::npos) << only_one;
}

TEST(html_report, plots_a_kernel_of_a_one_kernel_case_only_as_the_case_total) {
  run_results results = test::sample_run();
  results.cases[1].kernels.resize(1);
  metric_history total = noisy_series();
  metric_history per_kernel = noisy_series();
  per_kernel.kernel = "counterguard::kernels::transpose::naive";
  EXPECT_EQ(count(section(render_html_report(judge_run(results, false), {total, per_kernel}), "trends"),
                  "<svg class=\"cg-plot"),
            1U);
  results.cases[1].kernels.resize(2);
  EXPECT_EQ(count(section(render_html_report(judge_run(results, false), {total, per_kernel}), "trends"),
                  "<svg class=\"cg-plot"),
            2U);
}

TEST(html_report, counts_series_that_never_changed_instead_of_drawing_them) {
  metric_history flat = exact_series();
  for (auto& p : flat.points) {
    p.value = 0;
    p.verdict = "pass";
  }
  const std::string trends =
      section(render_html_report(judge_run(test::sample_run(), false), {flat, noisy_series()}), "trends");
  EXPECT_EQ(count(trends, "<svg class=\"cg-plot"), 1U);
  EXPECT_NE(trends.find("1 series held the same value and band in every run"), std::string::npos) << trends;
}

TEST(html_report, keeps_the_plots_collapsed_unless_one_fails) {
  metric_history fine = noisy_series();
  fine.instance = "s/quiet";  // not a case failing in sample_run()
  fine.points.back().value = 1020;
  fine.points.back().verdict = "pass";
  const std::string quiet =
      section(render_html_report(judge_run(test::sample_run(), false), {fine}), "trends");
  EXPECT_NE(quiet.find("<details class=\"plots\"><summary>"), std::string::npos) << quiet;
  const std::string failing =
      section(render_html_report(judge_run(test::sample_run(), false), {noisy_series()}), "trends");
  EXPECT_NE(failing.find("<details class=\"plots\" open><summary>"), std::string::npos) << failing;
}

TEST(html_report, links_a_case_to_its_plots) {
  const std::string suites =
      section(render_html_report(judge_run(test::sample_run(), false), {noisy_series()}), "suites");
  EXPECT_NE(suites.find("<a href=\"#trend-0\">duration_ns</a>"), std::string::npos) << suites;
}

TEST(html_report, needs_nothing_from_the_network) {
  const std::string html =
      render_html_report(judge_run(test::sample_run(), false), {noisy_series(), exact_series()});
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  const std::regex external(R"((src|href)\s*=\s*["']?\s*(https?:)?//)", std::regex::icase);
  EXPECT_FALSE(std::regex_search(html, external));
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
}

TEST(html_report, the_recorded_builtin_run_stays_small) {
  // The whole built-in suite as recorded on the H200 (93 cases, 402 checks) and a history of 30 runs in
  // which every noisy total moves from run to run.
  std::ifstream in(std::string(COUNTERGUARD_SOURCE_DIR) + "/harness/test/fixtures/h200_builtin/results.json");
  const run_results results = nlohmann::json::parse(in).get<run_results>();
  std::vector<metric_history> history;
  for (const auto& c : results.cases) {
    for (const auto& [metric, total] : c.totals) {
      metric_history series;
      series.instance = c.instance;
      series.kernel = "total";
      series.metric = metric;
      series.cls = total.cls;
      for (int run = 0; run < 30; ++run) {
        const double value =
            total.cls == metric_class::noisy ? total.value * (1.0 + 0.001 * (run % 7)) : total.value;
        series.points.push_back(point(std::string(8, static_cast<char>('a' + run % 26)) + std::to_string(run),
                                      value, total.value * 0.9, total.value * 1.1));
      }
      history.push_back(series);
    }
  }
  const std::string without = render_html_report(judge_run(results, false), {});
  const std::string with = render_html_report(judge_run(results, false), history);
  EXPECT_LT(without.size(), 300'000U);
  EXPECT_LT(with.size(), 1'500'000U) << history.size() << " series";
}

TEST(trend_plot, labels_runs_with_short_commit_hashes) {
  const std::string svg = render_trend_plot_svg(noisy_series());
  EXPECT_NE(svg.find(">aaaaaaa<"), std::string::npos);
  EXPECT_NE(svg.find(">ccccccc<"), std::string::npos);
  EXPECT_EQ(svg.find("aaaaaaa10"), std::string::npos);
}

TEST(trend_plot, a_noisy_series_is_a_line_over_its_band) {
  const std::string svg = render_trend_plot_svg(noisy_series());
  EXPECT_NE(svg.find("<svg class=\"cg-plot noisy\""), std::string::npos);
  EXPECT_EQ(count(svg, "<path class=\"band\""), 1U);
  const auto line = svg.find("<path class=\"line\" d=\"M");
  ASSERT_NE(line, std::string::npos);
  EXPECT_NE(svg.find('L', line), std::string::npos);
  EXPECT_EQ(count(svg, "<circle"), 3U);
  EXPECT_EQ(count(svg, "<circle class=\"pt bad\""), 1U);  // the regression
}

TEST(trend_plot, an_exact_series_is_a_step_plot) {
  const std::string svg = render_trend_plot_svg(exact_series());
  EXPECT_NE(svg.find("<svg class=\"cg-plot exact\""), std::string::npos);
  const auto begin = svg.find("<path class=\"line\" d=\"");
  ASSERT_NE(begin, std::string::npos);
  const std::string d = svg.substr(begin, svg.find("\"/>", begin) - begin);
  EXPECT_NE(d.find('H'), std::string::npos) << d;
  EXPECT_NE(d.find('V'), std::string::npos) << d;
  EXPECT_EQ(d.find('L'), std::string::npos) << d;
}

TEST(trend_plot, a_run_that_measured_nothing_leaves_a_gap) {
  metric_history series = noisy_series();
  series.points[1].value = std::numeric_limits<double>::quiet_NaN();
  const std::string svg = render_trend_plot_svg(series);
  const auto begin = svg.find("<path class=\"line\" d=\"");
  const std::string d = svg.substr(begin, svg.find("\"/>", begin) - begin);
  EXPECT_EQ(count(d, "M"), 2U) << d;
  EXPECT_EQ(count(svg, "<circle"), 2U);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

TEST(trend_plot, runs_without_a_baseline_have_no_band) {
  metric_history series = noisy_series();
  series.points[1].band_low.reset();
  series.points[1].band_high.reset();
  EXPECT_EQ(count(render_trend_plot_svg(series), "<path class=\"band\""), 2U);
  for (auto& p : series.points) {
    p.band_low.reset();
    p.band_high.reset();
  }
  EXPECT_EQ(count(render_trend_plot_svg(series), "<path class=\"band\""), 0U);
}

TEST(trend_plot, a_single_run_and_an_empty_history_still_draw) {
  metric_history series = noisy_series();
  series.points.resize(1);
  EXPECT_EQ(count(render_trend_plot_svg(series), "<circle"), 1U);
  series.points.clear();
  const std::string empty = render_trend_plot_svg(series);
  EXPECT_EQ(count(empty, "<circle"), 0U);
  EXPECT_NE(empty.find("</svg>"), std::string::npos);
}

TEST(trend_plot, tick_labels_are_round_numbers) {
  metric_history series = noisy_series();
  series.points = {point("a", 0.1), point("b", 0.2), point("c", 0.3)};
  const std::string svg = render_trend_plot_svg(series);
  EXPECT_EQ(svg.find("0000000"), std::string::npos) << svg;  // no 0.30000000000000004
  EXPECT_NE(svg.find(">0.2<"), std::string::npos) << svg;
}

}  // namespace
}  // namespace counterguard

namespace counterguard {
namespace {

TEST(html_report, shows_a_blamed_cases_source_lines_in_the_case) {
  const std::string html = render_html_report(judge_run(test::sample_run_with_blame(), false), {});
  const auto table = html.find("<table class=\"blame\">");
  ASSERT_NE(table, std::string::npos);
  EXPECT_NE(html.find("<code>transpose.cu:34</code></td><td><code>STS [R7], R8</code></td><td>"
                      "shared_excess_wavefronts</td><td class=\"n\">0</td><td class=\"n\">4063232</td>",
                      table),
            std::string::npos)
      << html.substr(table, 600);
  EXPECT_NE(html.find("(against the per-line baseline)"), std::string::npos);
}

TEST(html_report, of_a_run_that_profiled_nothing_says_static_checks_only_in_its_title_and_header) {
  const std::string html = render_html_report(judge_run(test::static_only_run(), false), {});
  EXPECT_NE(html.find("<title>counterguard: passed (static checks only)"), std::string::npos);
  EXPECT_NE(html.find("<strong>static checks only: 5 counter checks not run: no GPU</strong>"),
            std::string::npos);
}

}  // namespace
}  // namespace counterguard
