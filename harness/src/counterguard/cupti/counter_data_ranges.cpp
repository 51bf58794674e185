// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cupti/counter_data_ranges.hpp"

#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>

#include <cstdlib>
#include <memory>

#include "counterguard/cupti/cupti_check.hpp"

namespace counterguard::detail {

std::size_t counter_data_range_count(const std::vector<std::uint8_t>& image) {
  auto params = cupti_params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  params.pCounterDataImage = image.data();
  params.counterDataImageSize = image.size();
  COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataInfo(&params));
  return params.numTotalRanges;
}

std::string counter_data_range_name(const std::vector<std::uint8_t>& image, std::size_t index) {
  auto params = cupti_params<CUpti_Profiler_Host_GetRangeName_Params>(
      CUpti_Profiler_Host_GetRangeName_Params_STRUCT_SIZE);
  params.pCounterDataImage = image.data();
  params.counterDataImageSize = image.size();
  params.rangeIndex = index;
  params.delimiter = "/";
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerHostGetRangeName(&params));
  // cupti_profiler_host.h: the caller frees the name.
  const std::unique_ptr<char, decltype(&std::free)> owned(const_cast<char*>(params.pRangeName), &std::free);
  return owned ? std::string(owned.get()) : std::string();
}

}  // namespace counterguard::detail
