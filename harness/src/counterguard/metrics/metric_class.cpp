// SPDX-License-Identifier: Apache-2.0
#include "counterguard/metrics/metric_class.hpp"

namespace counterguard {

const char* to_string(metric_class cls) {
  switch (cls) {
    case metric_class::static_resource:
      return "static";
    case metric_class::exact:
      return "exact";
    case metric_class::noisy:
      return "noisy";
  }
  return "exact";
}

std::optional<metric_class> parse_metric_class(const std::string& text) {
  if (text == "static")
    return metric_class::static_resource;
  if (text == "exact")
    return metric_class::exact;
  if (text == "noisy")
    return metric_class::noisy;
  return std::nullopt;
}

const char* to_string(metric_direction direction) {
  switch (direction) {
    case metric_direction::lower_is_better:
      return "lower_is_better";
    case metric_direction::higher_is_better:
      return "higher_is_better";
    case metric_direction::exact:
      return "exact";
  }
  return "exact";
}

std::optional<metric_direction> parse_metric_direction(const std::string& text) {
  if (text == "lower_is_better")
    return metric_direction::lower_is_better;
  if (text == "higher_is_better")
    return metric_direction::higher_is_better;
  if (text == "exact")
    return metric_direction::exact;
  return std::nullopt;
}

}  // namespace counterguard
