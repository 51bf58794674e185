// SPDX-License-Identifier: Apache-2.0
#include "counterguard/evaluator/counter_data_evaluator.hpp"

#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#include "counterguard/core/error.hpp"
#include "counterguard/cupti/counter_data_ranges.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/profiler_host.hpp"

namespace counterguard {
namespace {

// Every image cuptiRangeProfilerDecodeData wrote on the H200 starts with this tag. CUPTI does not check it
// and crashes on arbitrary bytes (observed), so reject anything else before handing it over.
constexpr char k_image_tag[] = "LOPDATA";

void check_image_shape(const counter_data_image& image) {
  if (image.bytes.size() < sizeof(k_image_tag) ||
      std::memcmp(image.bytes.data(), k_image_tag, sizeof(k_image_tag)) != 0) {
    throw api_error("counter-data image of " + std::to_string(image.bytes.size()) +
                        " bytes is not a CUPTI counter-data image (it does not start with 'LOPDATA')",
                    0);
  }
  if (image.chip.empty())
    throw api_error("counter-data image names no chip; cannot choose the metric tables", 0);
}

CUptiResult evaluate_range(detail::profiler_host& host, const counter_data_image& image, std::size_t index,
                           const char** names, std::size_t count, double* values) {
  auto params = detail::cupti_params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
  params.pHostObject = host.get();
  params.pCounterDataImage = image.bytes.data();
  params.counterDataImageSize = image.bytes.size();
  params.rangeIndex =
      index;  // CUPTI accepts indices past the end (observed), so callers stay below the count
  params.ppMetricNames = names;
  params.numMetrics = count;
  params.pMetricValues = values;
  return cuptiProfilerHostEvaluateToGpuValues(&params);
}

// Which of `metrics` CUPTI refuses on their own, for the error message ("'a', 'b'"; all of them if none
// alone).
std::string rejected_metrics(detail::profiler_host& host, const counter_data_image& image, std::size_t index,
                             const std::vector<std::string>& metrics) {
  std::string rejected;
  for (const auto& metric : metrics) {
    const char* name = metric.c_str();
    double value = 0.0;
    if (evaluate_range(host, image, index, &name, 1, &value) != CUPTI_SUCCESS) {
      rejected += (rejected.empty() ? "'" : ", '") + metric + "'";
    }
  }
  if (!rejected.empty())
    return rejected;
  for (const auto& metric : metrics)
    rejected += (rejected.empty() ? "'" : ", '") + metric + "'";
  return rejected;
}

}  // namespace

std::vector<evaluated_range> evaluate_counter_data(const counter_data_image& image,
                                                   const std::vector<std::string>& raw_metrics) {
  check_image_shape(image);
  std::vector<const char*> names;
  names.reserve(raw_metrics.size());
  for (const auto& metric : raw_metrics)
    names.push_back(metric.c_str());

  std::vector<evaluated_range> result;
  detail::with_shared_profiler_host(image.chip, [&](detail::profiler_host& host) {
    // Reading the image needs the host API initialised (CUPTI_ERROR_NOT_INITIALIZED otherwise), which the
    // host object does.
    const std::size_t ranges = detail::counter_data_range_count(image.bytes);
    result.resize(ranges);
    std::vector<double> values(raw_metrics.size());
    for (std::size_t index = 0; index < ranges; ++index) {
      result[index].name = detail::counter_data_range_name(image.bytes, index);
      if (names.empty())
        continue;
      const CUptiResult status =
          evaluate_range(host, image, index, names.data(), names.size(), values.data());
      if (status == CUPTI_ERROR_INVALID_METRIC_NAME || status == CUPTI_ERROR_INVALID_PARAMETER) {
        throw api_error("cannot evaluate " + rejected_metrics(host, image, index, raw_metrics) +
                            " for chip " + image.chip + ": " + detail::cupti_result_name(status) +
                            " (a name CUPTI does not know for this chip, or an image of another chip)",
                        static_cast<int>(status));
      }
      if (status != CUPTI_SUCCESS) {
        detail::throw_cupti_error(status, "cuptiProfilerHostEvaluateToGpuValues");
      }
      for (std::size_t m = 0; m < raw_metrics.size(); ++m)
        result[index].values[raw_metrics[m]] = values[m];
    }
  });
  return result;
}

}  // namespace counterguard
