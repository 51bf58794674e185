// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cupti/counter_data_image_setup.hpp"

#include <cupti_range_profiler.h>

#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/profiler_host.hpp"

namespace counterguard::detail {

std::vector<std::uint8_t> initialized_counter_data_image(CUpti_RangeProfiler_Object* profiler,
                                                         const std::vector<std::string>& raw_metrics,
                                                         int max_ranges) {
  std::vector<const char*> names = c_names(raw_metrics);
  auto size = cupti_params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pRangeProfilerObject = profiler;
  size.pMetricNames = names.data();
  size.numMetrics = names.size();
  size.maxNumOfRanges = static_cast<std::size_t>(max_ranges);
  size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(max_ranges);
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataSize(&size));
  std::vector<std::uint8_t> image(size.counterDataSize, 0);

  auto initialize = cupti_params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  initialize.pRangeProfilerObject = profiler;
  initialize.counterDataSize = image.size();
  initialize.pCounterData = image.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerCounterDataImageInitialize(&initialize));
  return image;
}

}  // namespace counterguard::detail
