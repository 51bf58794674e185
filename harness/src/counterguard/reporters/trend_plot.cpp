// SPDX-License-Identifier: Apache-2.0
#include "counterguard/reporters/trend_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "counterguard/core/value_format.hpp"

namespace counterguard {
namespace {

// Plot geometry in SVG user units; the element scales to its container's width.
constexpr double plot_width = 560;
constexpr double plot_height = 230;
constexpr double margin_left = 72;  // y tick labels
constexpr double margin_right = 12;
constexpr double margin_top = 10;
constexpr double margin_bottom = 58;  // rotated commit labels
constexpr double inner_width = plot_width - margin_left - margin_right;
constexpr double inner_height = plot_height - margin_top - margin_bottom;
constexpr std::size_t max_x_labels = 24;  // beyond this, every k-th run is labelled
constexpr double min_band_height = 2.0;   // an exact band (low == high) stays visible

std::string coordinate(double value) {
  return fmt::format("{:.1f}", value);
}

bool is_failing_verdict(const std::string& verdict) {
  return verdict == "fail" || verdict == "regression" || verdict == "missing";
}

// The CSS class of a point: failing verdicts red, improvements green, the rest neutral.
const char* point_class(const std::string& verdict) {
  if (is_failing_verdict(verdict))
    return "pt bad";
  if (verdict == "improvement")
    return "pt good";
  return "pt";
}

struct value_range {
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  void add(double value) {
    if (std::isfinite(value)) {
      low = std::min(low, value);
      high = std::max(high, value);
    }
  }
};

// A step of 1, 2 or 5 times a power of ten giving about `count` intervals over `span`.
double nice_step(double span, int count) {
  const double raw = span / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / magnitude;
  const double nice = fraction <= 1.0 ? 1.0 : fraction <= 2.0 ? 2.0 : fraction <= 5.0 ? 5.0 : 10.0;
  return nice * magnitude;
}

// Maps run indices and values to SVG coordinates.
class plot_frame {
 public:
  plot_frame(std::size_t runs, value_range range) : m_runs(runs) {
    if (!std::isfinite(range.low)) {  // nothing measured at all
      range.low = 0.0;
      range.high = 1.0;
    }
    if (range.high == range.low) {  // a flat series: open a window around it
      const double pad = range.low == 0.0 ? 1.0 : std::abs(range.low) * 0.05;
      range.low -= pad;
      range.high += pad;
    }
    const double pad = (range.high - range.low) * 0.08;
    m_low = range.low - pad;
    m_high = range.high + pad;
  }
  [[nodiscard]] double x(std::size_t run) const {
    if (m_runs <= 1)
      return margin_left + inner_width / 2;
    return margin_left + inner_width * static_cast<double>(run) / static_cast<double>(m_runs - 1);
  }
  // Half the distance between neighbouring runs: how far a run's band reaches left and right.
  [[nodiscard]] double half_step() const {
    return m_runs <= 1 ? inner_width / 2 : inner_width / static_cast<double>(m_runs - 1) / 2;
  }
  [[nodiscard]] double y(double value) const {
    return margin_top + inner_height * (m_high - value) / (m_high - m_low);
  }
  [[nodiscard]] double low() const { return m_low; }
  [[nodiscard]] double high() const { return m_high; }

 private:
  std::size_t m_runs;
  double m_low = 0.0;
  double m_high = 1.0;
};

std::string axes_and_ticks(const metric_history& series, const plot_frame& frame) {
  std::string svg;
  const double bottom = margin_top + inner_height;
  svg += fmt::format(R"(<path class="ax" d="M{} {}V{}H{}"/>)", coordinate(margin_left),
                     coordinate(margin_top), coordinate(bottom), coordinate(plot_width - margin_right));
  const double step = nice_step(frame.high() - frame.low(), 4);
  // As many decimals as the step has: 0.1 * 3 reads "0.3", not 0.30000000000000004.
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step))));
  const auto first = static_cast<long long>(std::ceil(frame.low() / step));
  const auto last = static_cast<long long>(std::floor(frame.high() / step));
  for (long long k = first; k <= last; ++k) {
    const double value = static_cast<double>(k) * step + 0.0;  // + 0.0: no "-0"
    const std::string y = coordinate(frame.y(value));
    svg += fmt::format(R"(<path class="grid" d="M{} {}H{}"/><text class="yl" x="{}" y="{}">{}</text>)",
                       coordinate(margin_left), y, coordinate(plot_width - margin_right),
                       coordinate(margin_left - 4), y, fmt::format("{:.{}f}", value, decimals));
  }
  const std::size_t n = series.points.size();
  const std::size_t every = n <= max_x_labels ? 1 : (n + max_x_labels - 1) / max_x_labels;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % every != 0 && i + 1 != n)
      continue;
    const std::string x = coordinate(frame.x(i));
    const std::string y = coordinate(bottom + 10);
    svg += fmt::format(R"svg(<text class="xl" x="{}" y="{}" transform="rotate(-40 {} {})">{}</text>)svg", x,
                       y, x, y, html_escape(short_commit(series.points[i].git_commit)));
  }
  return svg;
}

// The band in force at each run, as one shaded step-shaped area per stretch of runs that had one.
std::string band(const metric_history& series, const plot_frame& frame) {
  std::string svg;
  const std::size_t n = series.points.size();
  const double left_edge = margin_left;
  const double right_edge = plot_width - margin_right;
  std::size_t i = 0;
  while (i < n) {
    if (!series.points[i].band_low || !series.points[i].band_high) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < n && series.points[end].band_low && series.points[end].band_high)
      ++end;
    std::string upper;
    std::string lower;
    for (std::size_t k = i; k < end; ++k) {
      const auto& point = series.points[k];
      double top = frame.y(std::max(*point.band_low, *point.band_high));
      double foot = frame.y(std::min(*point.band_low, *point.band_high));
      if (foot - top < min_band_height) {
        const double middle = (top + foot) / 2;
        top = middle - min_band_height / 2;
        foot = middle + min_band_height / 2;
      }
      const double from = std::max(left_edge, frame.x(k) - frame.half_step());
      const double to = std::min(right_edge, frame.x(k) + frame.half_step());
      upper +=
          fmt::format("{}{} {}H{}", k == i ? "M" : "L", coordinate(from), coordinate(top), coordinate(to));
      lower = fmt::format("L{} {}H{}", coordinate(to), coordinate(foot), coordinate(from)) + lower;
    }
    svg += R"(<path class="band" d=")" + upper + lower + R"(Z"/>)";
    i = end;
  }
  return svg;
}

// The values: a line (noisy) or steps (exact, static), broken where a run measured nothing.
std::string trace(const metric_history& series, const plot_frame& frame) {
  const bool steps = series.cls != metric_class::noisy;
  std::string d;
  bool pen_down = false;
  double last_y = 0.0;
  for (std::size_t i = 0; i < series.points.size(); ++i) {
    const double value = series.points[i].value;
    if (!std::isfinite(value)) {
      pen_down = false;
      continue;
    }
    const double x = frame.x(i);
    const double y = frame.y(value);
    if (!pen_down) {
      d += "M" + coordinate(x) + " " + coordinate(y);
    } else if (steps) {
      d += "H" + coordinate(x) + (y == last_y ? std::string() : "V" + coordinate(y));
    } else {
      d += "L" + coordinate(x) + " " + coordinate(y);
    }
    pen_down = true;
    last_y = y;
  }
  return d.empty() ? std::string() : R"(<path class="line" d=")" + d + R"("/>)";
}

std::string points(const metric_history& series, const plot_frame& frame) {
  std::string svg;
  for (std::size_t i = 0; i < series.points.size(); ++i) {
    const history_point& point = series.points[i];
    if (!std::isfinite(point.value))
      continue;
    std::string tip =
        short_commit(point.git_commit) + " " + point.started_at + ": " + format_value(point.value);
    if (point.band_low && point.band_high)
      tip += " (band " + format_value(*point.band_low) + " to " + format_value(*point.band_high) + ")";
    if (!point.verdict.empty())
      tip += " " + point.verdict;
    svg += fmt::format(R"(<circle class="{}" cx="{}" cy="{}" r="3"><title>{}</title></circle>)",
                       point_class(point.verdict), coordinate(frame.x(i)), coordinate(frame.y(point.value)),
                       html_escape(tip));
  }
  return svg;
}

}  // namespace

std::string short_commit(const std::string& commit) {
  return commit.size() > 7 ? commit.substr(0, 7) : commit;
}

std::string render_trend_plot_svg(const metric_history& series) {
  value_range range;
  for (const auto& point : series.points) {
    range.add(point.value);
    if (point.band_low)
      range.add(*point.band_low);
    if (point.band_high)
      range.add(*point.band_high);
  }
  const plot_frame frame(series.points.size(), range);
  std::string label = series.instance + " " + series.metric;
  if (!series.kernel.empty() && series.kernel != "total")
    label += " [" + series.kernel + "]";
  std::string svg = fmt::format(
      R"(<svg class="cg-plot {}" viewBox="0 0 {} {}" role="img" aria-label="{}"><title>{}</title>)",
      series.cls == metric_class::noisy ? "noisy" : "exact", plot_width, plot_height, html_escape(label),
      html_escape(label + " (" + to_string(series.cls) + "), " + std::to_string(series.points.size()) +
                  " runs"));
  svg += axes_and_ticks(series, frame);
  svg += band(series, frame);
  svg += trace(series, frame);
  svg += points(series, frame);
  svg += "</svg>";
  return svg;
}

}  // namespace counterguard
