// SPDX-License-Identifier: Apache-2.0
#include "counterguard/baselines/baseline_update.hpp"
#include "counterguard/baselines/noise_model.hpp"
#include "counterguard/metrics/metric_catalog.hpp"

namespace counterguard {
namespace {

constexpr double percentage_point_floor = 2.0;

}  // namespace

metric_traits catalog_metric_traits(const std::string& metric) {
  metric_traits traits;
  traits.noise = noise_kind_of_metric(metric);
  const std::optional<metric_definition> found = metric_catalog::builtin().try_resolve(metric);
  if (!found)
    return traits;  // not a name the catalog knows: exact, lower is better
  const metric_definition& definition = *found;
  traits.cls = definition.cls;
  traits.direction = definition.direction;
  // A floor of 32 counts means nothing for a percentage (it would accept any value), and a relative band
  // alone is too tight for a small one (achieved occupancy of 14% moved by more than 5% of itself between
  // runs on the H200): percentages get a floor of 2 percentage points.
  const bool percentage = definition.unit == "%" || definition.unit == "percent" ||
                          definition.formula.find(".pct") != std::string::npos ||
                          metric.find(".pct") != std::string::npos;
  if (traits.cls == metric_class::noisy && percentage)
    traits.absolute_floor = percentage_point_floor;
  return traits;
}

}  // namespace counterguard
