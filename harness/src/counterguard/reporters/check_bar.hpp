// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

#include "counterguard/results/run_results.hpp"

namespace counterguard {

// The values a check accepts, as its `expected` text states them (the checker's and the baseline
// comparison's forms): "== 4", "<= 31", ">= 0", "in [2, 8]", "33251.3 in [28774.9, 39727.7]",
// "4194304 (exact)", "0 (must stay 0)", "100 (±5%)", or a bare baseline value. `centre` is the baseline
// value where the text names one. An open side is an infinity.
struct accepted_values {
  double low = 0.0;
  double high = 0.0;
  std::optional<double> centre;
};

// Nothing for a text that states no values ("(no baseline)").
[[nodiscard]] std::optional<accepted_values> accepted_values_of(const std::string& expected);

// One check as a small inline SVG bar (no class; the page's CSS styles it): the accepted values shaded
// (an open side reaches the edge; a single value is a thin bar), the baseline value as a tick, the
// measured value as a dot. The scale spans the accepted values and the measurement with a margin. Empty
// when there is nothing to place (no accepted values and no measurement).
[[nodiscard]] std::string render_check_bar_svg(const check_outcome& check);

}  // namespace counterguard
