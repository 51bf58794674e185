// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cupti/instrumented_counter.hpp"

#include <algorithm>

namespace counterguard {

bool is_instrumented_counter(const std::string& raw_metric) {
  return raw_metric.find("__sass_") != std::string::npos;
}

bool has_instrumented_counter(const std::vector<std::string>& raw_metrics) {
  return std::any_of(raw_metrics.begin(), raw_metrics.end(), is_instrumented_counter);
}

}  // namespace counterguard
