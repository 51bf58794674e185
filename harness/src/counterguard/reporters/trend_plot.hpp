// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

#include "counterguard/history/metric_history.hpp"
#include "counterguard/reporters/markup_escape.hpp"

namespace counterguard {

// Text safe in HTML (and inline SVG) element content and quoted attribute values (escape_markup).
[[nodiscard]] inline std::string html_escape(std::string_view text) {
  return escape_markup(text, markup_language::html);
}

// "6955cc2" (the first 7 characters of a commit hash), or the text as it is when shorter.
[[nodiscard]] std::string short_commit(const std::string& commit);

// One metric's history as an inline SVG element (class "cg-plot"), needing nothing outside the page:
// x = run order (oldest left), tick labels = short commit hashes; y = the value with a few round ticks.
// A noisy metric is a line through its points over the baseline band in force at each run (shaded);
// an exact or static metric is a step plot (a value holds until the next run) over its baseline as a
// dashed band. Each point is a circle coloured by its verdict, with a <title> tooltip (commit, date,
// value, band, verdict). Points that measured nothing (NaN) leave a gap.
[[nodiscard]] std::string render_trend_plot_svg(const metric_history& series);

}  // namespace counterguard
