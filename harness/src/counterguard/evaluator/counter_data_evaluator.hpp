// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <vector>

#include "counterguard/cupti/counter_data_image.hpp"

namespace counterguard {

// One range of a counter-data image, evaluated.
struct evaluated_range {
  std::string name;                      // the range name stored in the image
  std::map<std::string, double> values;  // raw CUPTI metric name -> value
};

// Evaluates raw CUPTI metrics for every range of an image through the CUPTI host API. Needs no GPU:
// the same values come out on the machine that recorded the image and on a CPU-only CI machine.
// Throws input_error-like errors (api_error) when the image is corrupt or from another chip than claimed.
[[nodiscard]] std::vector<evaluated_range> evaluate_counter_data(const counter_data_image& image,
                                                                 const std::vector<std::string>& raw_metrics);

}  // namespace counterguard
