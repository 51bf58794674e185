// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "counterguard/cupti/counter_data_image.hpp"
#include "counterguard/evaluator/counter_data_evaluator.hpp"
#include "counterguard/in_process/profile_result.hpp"
#include "counterguard/planning/metric_plan.hpp"
#include "counterguard/profiler/profiled_launch.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// What a profiled piece of work observed, kept by its profile_result so that for_kernel measures a subset of
// the launches with the same fill_measurements as the whole.
struct profiled_work {
  metric_plan plan;
  std::vector<profiled_launch> launches;
  counter_data_image image;  // evaluated on first use (most results are never narrowed)
  std::vector<std::string> raw_metrics;
  std::shared_ptr<const std::vector<kernel_resources>> resources;
  // False when the launches' attributes (registers, occupancy) could not be read: launch metrics unmeasured.
  bool launch_attributes_known = true;

  // The image's ranges, evaluated once, in launch order.
  [[nodiscard]] const std::vector<evaluated_range>& ranges() const {
    std::call_once(m_evaluated, [this] {
      if (!raw_metrics.empty() && !image.bytes.empty())
        m_ranges = evaluate_counter_data(image, raw_metrics);
    });
    return m_ranges;
  }
  // A subset whose ranges are known already (the image stays empty).
  void set_ranges(std::vector<evaluated_range> ranges) {
    std::call_once(m_evaluated, [&] { m_ranges = std::move(ranges); });
  }

 private:
  mutable std::once_flag m_evaluated;
  mutable std::vector<evaluated_range> m_ranges;
};

}  // namespace counterguard
