// SPDX-License-Identifier: Apache-2.0
#include "counterguard/metrics/metric_definition.hpp"

#include <nlohmann/json.hpp>

namespace counterguard {

const char* to_string(metric_source source) {
  switch (source) {
    case metric_source::cupti:
      return "cupti";
    case metric_source::compiler:
      return "compiler";
    case metric_source::launch:
      return "launch";
  }
  return "unknown";
}

nlohmann::json metric_definition_json(const metric_definition& metric) {
  return nlohmann::json{{"name", metric.name},
                        {"class", to_string(metric.cls)},
                        {"direction", to_string(metric.direction)},
                        {"source", to_string(metric.source)},
                        {"formula", metric.formula},
                        {"raw_inputs", metric.raw_inputs},
                        {"summable", metric.summable},
                        {"unit", metric.unit},
                        {"description", metric.description}};
}

}  // namespace counterguard
