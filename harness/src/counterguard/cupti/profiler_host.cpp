// SPDX-License-Identifier: Apache-2.0
#include "counterguard/cupti/profiler_host.hpp"

#include <cupti_profiler_host.h>

#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "counterguard/core/error.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/nvperf_host_library.hpp"

namespace counterguard::detail {
namespace {

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

profiler_host::profiler_host(std::string chip, const std::vector<std::uint8_t>& counter_availability)
    : m_chip(std::move(chip)) {
  static_cast<void>(nvperf_host());  // CUPTI's host API needs it loaded (nvperf_host_library.hpp)
  auto params =
      cupti_params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  params.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  params.pChipName = m_chip.c_str();
  params.pCounterAvailabilityImage = counter_availability.empty() ? nullptr : counter_availability.data();
  const CUptiResult status = cuptiProfilerHostInitialize(&params);
  if (status == CUPTI_ERROR_INVALID_CHIP_NAME) {
    throw input_error({}, "chip", "unknown chip '" + m_chip + "'",
                      "the installed CUPTI knows: " + join(cupti_supported_chips()));
  }
  if (status != CUPTI_SUCCESS)
    throw_cupti_error(status, "cuptiProfilerHostInitialize");
  m_object = params.pHostObject;
}

profiler_host::~profiler_host() {
  if (m_object == nullptr)
    return;
  auto params = cupti_params<CUpti_Profiler_Host_Deinitialize_Params>(
      CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
  params.pHostObject = m_object;
  COUNTERGUARD_CUPTI_NOTHROW(cuptiProfilerHostDeinitialize(&params));
}

void profiler_host::add_metrics(const std::vector<std::string>& metrics) {
  std::vector<const char*> names = c_names(metrics);
  auto params = cupti_params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  params.pHostObject = m_object;
  params.ppMetricNames = names.data();
  params.numMetrics = names.size();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerHostConfigAddMetrics(&params));
}

std::vector<std::uint8_t> profiler_host::config_image() const {
  auto size_params = cupti_params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size_params.pHostObject = m_object;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerHostGetConfigImageSize(&size_params));
  std::vector<std::uint8_t> image(size_params.configImageSize);
  auto params = cupti_params<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  params.pHostObject = m_object;
  params.configImageSize = image.size();
  params.pConfigImage = image.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerHostGetConfigImage(&params));
  return image;
}

int config_pass_count(std::vector<std::uint8_t>& config_image) {
  auto params = cupti_params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  params.configImageSize = config_image.size();
  params.pConfigImage = config_image.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerHostGetNumOfPasses(&params));
  return static_cast<int>(params.numOfPasses);
}

std::vector<std::string> cupti_supported_chips() {
  auto params = cupti_params<CUpti_Profiler_Host_GetSupportedChips_Params>(
      CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerHostGetSupportedChips(&params));
  std::vector<std::string> chips;
  chips.reserve(params.numChips);
  for (std::size_t i = 0; i < params.numChips; ++i)
    chips.emplace_back(params.ppChipNames[i]);
  return chips;
}

void with_shared_profiler_host(const std::string& chip, const std::function<void(profiler_host&)>& use) {
  // Never destroyed: deinitialising at exit could run after CUPTI's own teardown.
  static std::mutex mutex;
  static auto* hosts = new std::map<std::string, std::unique_ptr<profiler_host>>();
  const std::lock_guard<std::mutex> lock(mutex);
  auto found = hosts->find(chip);
  if (found == hosts->end())
    found = hosts->emplace(chip, std::make_unique<profiler_host>(chip)).first;
  use(*found->second);
}

std::vector<const char*> c_names(const std::vector<std::string>& names) {
  std::vector<const char*> pointers;
  pointers.reserve(names.size());
  for (const auto& name : names)
    pointers.push_back(name.c_str());
  return pointers;
}

}  // namespace counterguard::detail
