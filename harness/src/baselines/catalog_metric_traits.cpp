#include <stdexcept>

#include "counterguard/baselines/baseline_update.hpp"
#include "counterguard/metrics/metric_catalog.hpp"

namespace counterguard {

metric_traits catalog_metric_traits(const std::string& metric) {
  metric_traits traits;
  metric_definition definition;
  try {
    definition = metric_catalog::builtin().resolve(metric);
  } catch (const std::out_of_range&) {
    return traits;  // not a name the catalog knows: exact, lower is better
  }
  traits.cls = definition.cls;
  traits.direction = definition.direction;
  // A floor of 32 counts means nothing for a percentage (it would accept any value): rely on the
  // relative tolerance alone.
  const bool percentage = definition.unit == "%" || definition.unit == "percent" ||
                          definition.formula.find(".pct") != std::string::npos ||
                          metric.find(".pct") != std::string::npos;
  if (traits.cls == metric_class::noisy && percentage)
    traits.absolute_floor = 0.0;
  return traits;
}

}  // namespace counterguard
