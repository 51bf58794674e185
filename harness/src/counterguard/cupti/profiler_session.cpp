// SPDX-License-Identifier: Apache-2.0
// CUPTI's session API, used the way it was measured on the H200 (validation/h200.md, "Findings"): kernel
// replay, auto range, one session across configurations, the bound counter-data image copied out and reset
// after each capture.
#include "counterguard/cupti/profiler_session.hpp"

#include <cupti_profiler_target.h>

#include <algorithm>
#include <cstdlib>

#include "counterguard/core/error.hpp"
#include "counterguard/core/timeline.hpp"
#include "counterguard/cupti/counter_data_prefix.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "counterguard/cupti/instrumented_counter.hpp"

namespace counterguard::detail {

namespace {

// Session API parameter structs are sized, zeroed and name the context.
template <typename Params>
Params session_params(std::size_t size, CUctx_st* context) {
  auto params = cupti_params<Params>(size);
  params.ctx = context;
  return params;
}

}  // namespace

profiler_session::profiler_session(CUctx_st* context, std::string chip,
                                   std::vector<std::uint8_t> counter_availability)
    : m_context(context), m_chip(std::move(chip)), m_availability(std::move(counter_availability)) {}

profiler_session::~profiler_session() {
  end();
}

void profiler_session::reserve(const std::vector<std::vector<std::string>>& metric_sets, int max_ranges) {
  std::set<std::string> metrics = m_metrics;
  for (const auto& set : metric_sets)
    metrics.insert(set.begin(), set.end());
  if (m_open && metrics == m_metrics && max_ranges <= m_max_ranges)
    return;
  end();
  begin(metrics, std::max(max_ranges, m_max_ranges));
}

void profiler_session::begin(const std::set<std::string>& metrics, int max_ranges) {
  const std::vector<std::uint8_t> prefix =
      counter_data_prefix(m_chip, m_availability, std::vector<std::string>(metrics.begin(), metrics.end()));
  timeline_mark("counter-data prefix built");
  auto options = cupti_params<CUpti_Profiler_CounterDataImageOptions>(
      CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE);
  options.pCounterDataPrefix = prefix.data();
  options.counterDataPrefixSize = prefix.size();
  options.maxNumRanges = static_cast<std::uint32_t>(max_ranges);
  options.maxNumRangeTreeNodes = static_cast<std::uint32_t>(max_ranges);
  options.maxRangeNameLength = 64;
  auto size = cupti_params<CUpti_Profiler_CounterDataImage_CalculateSize_Params>(
      CUpti_Profiler_CounterDataImage_CalculateSize_Params_STRUCT_SIZE);
  size.sizeofCounterDataImageOptions = CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE;
  size.pOptions = &options;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerCounterDataImageCalculateSize(&size));
  m_image.assign(size.counterDataImageSize, 0);
  auto init = cupti_params<CUpti_Profiler_CounterDataImage_Initialize_Params>(
      CUpti_Profiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.sizeofCounterDataImageOptions = CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE;
  init.pOptions = &options;
  init.counterDataImageSize = m_image.size();
  init.pCounterDataImage = m_image.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerCounterDataImageInitialize(&init));
  auto scratch_size = cupti_params<CUpti_Profiler_CounterDataImage_CalculateScratchBufferSize_Params>(
      CUpti_Profiler_CounterDataImage_CalculateScratchBufferSize_Params_STRUCT_SIZE);
  scratch_size.counterDataImageSize = m_image.size();
  scratch_size.pCounterDataImage = m_image.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerCounterDataImageCalculateScratchBufferSize(&scratch_size));
  m_scratch.assign(scratch_size.counterDataScratchBufferSize, 0);
  auto scratch = cupti_params<CUpti_Profiler_CounterDataImage_InitializeScratchBuffer_Params>(
      CUpti_Profiler_CounterDataImage_InitializeScratchBuffer_Params_STRUCT_SIZE);
  scratch.counterDataImageSize = m_image.size();
  scratch.pCounterDataImage = m_image.data();
  scratch.counterDataScratchBufferSize = m_scratch.size();
  scratch.pCounterDataScratchBuffer = m_scratch.data();
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerCounterDataImageInitializeScratchBuffer(&scratch));
  m_pristine_image = m_image;
  m_pristine_scratch = m_scratch;
  timeline_mark("counter-data image initialised");

  auto session = session_params<CUpti_Profiler_BeginSession_Params>(
      CUpti_Profiler_BeginSession_Params_STRUCT_SIZE, m_context);
  session.counterDataImageSize = m_image.size();
  session.pCounterDataImage = m_image.data();
  session.counterDataScratchBufferSize = m_scratch.size();
  session.pCounterDataScratchBuffer = m_scratch.data();
  session.range = CUPTI_AutoRange;
  session.replayMode = CUPTI_KernelReplay;
  session.maxRangesPerPass = static_cast<std::size_t>(max_ranges);
  session.maxLaunchesPerPass = static_cast<std::size_t>(max_ranges);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerBeginSession(&session));
  m_open = true;
  m_metrics = metrics;
  m_max_ranges = max_ranges;
  m_config = nullptr;
  m_config_size = 0;
  m_config_instrumented = false;
}

void profiler_session::end() noexcept {
  abandon_capture();
  if (!m_open)
    return;
  if (m_config != nullptr) {
    auto unset = session_params<CUpti_Profiler_UnsetConfig_Params>(
        CUpti_Profiler_UnsetConfig_Params_STRUCT_SIZE, m_context);
    COUNTERGUARD_CUPTI_NOTHROW(cuptiProfilerUnsetConfig(&unset));
  }
  auto session = session_params<CUpti_Profiler_EndSession_Params>(
      CUpti_Profiler_EndSession_Params_STRUCT_SIZE, m_context);
  COUNTERGUARD_CUPTI_NOTHROW(cuptiProfilerEndSession(&session));
  m_open = false;
  m_config = nullptr;
}

void profiler_session::set_config(const std::vector<std::uint8_t>& config, bool instrumented) {
  if (m_config == config.data() && m_config_size == config.size())
    return;
  if (m_config != nullptr) {
    auto unset = session_params<CUpti_Profiler_UnsetConfig_Params>(
        CUpti_Profiler_UnsetConfig_Params_STRUCT_SIZE, m_context);
    COUNTERGUARD_CUPTI_CHECK(cuptiProfilerUnsetConfig(&unset));
    m_config = nullptr;
  }
  auto set =
      session_params<CUpti_Profiler_SetConfig_Params>(CUpti_Profiler_SetConfig_Params_STRUCT_SIZE, m_context);
  set.pConfig = config.data();
  set.configSize = config.size();
  set.passIndex = 0;
  set.minNestingLevel = 1;
  set.numNestingLevels = 1;
  set.targetNestingLevel = 1;
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerSetConfig(&set));
  m_config = config.data();
  m_config_size = config.size();
  m_config_instrumented = instrumented;
}

void profiler_session::begin_capture(const std::vector<std::uint8_t>& config,
                                     const std::vector<std::string>& raw_metrics, int max_ranges,
                                     bool& restarted) {
  if (m_capturing)
    throw internal_error("a profiling capture was begun while another one was not ended");
  const bool instrumented = has_instrumented_counter(raw_metrics);
  const bool covered = std::all_of(raw_metrics.begin(), raw_metrics.end(),
                                   [&](const std::string& metric) { return m_metrics.count(metric) != 0; });
  const bool unsafe_switch =
      m_config != nullptr && m_config != config.data() && m_config_instrumented && !instrumented;
  restarted = !m_open || !covered || max_ranges > m_max_ranges || unsafe_switch;
  if (restarted) {
    std::set<std::string> metrics = m_metrics;
    metrics.insert(raw_metrics.begin(), raw_metrics.end());
    end();
    begin(metrics, std::max(max_ranges, m_max_ranges));
  }
  set_config(config, instrumented);
  auto enable = session_params<CUpti_Profiler_EnableProfiling_Params>(
      CUpti_Profiler_EnableProfiling_Params_STRUCT_SIZE, m_context);
  COUNTERGUARD_CUPTI_CHECK(cuptiProfilerEnableProfiling(&enable));
  m_capturing = true;
}

std::vector<std::uint8_t> profiler_session::end_capture() {
  if (!m_capturing)
    throw internal_error("a profiling capture was ended that was not begun");
  m_capturing = false;
  auto disable = session_params<CUpti_Profiler_DisableProfiling_Params>(
      CUpti_Profiler_DisableProfiling_Params_STRUCT_SIZE, m_context);
  const CUptiResult disabled = cuptiProfilerDisableProfiling(&disable);
  std::vector<std::uint8_t> image;
  if (disabled == CUPTI_SUCCESS)
    image = m_image;
  reset_image();
  COUNTERGUARD_CUPTI_CHECK(disabled);
  return image;
}

void profiler_session::abandon_capture() noexcept {
  if (!m_capturing)
    return;
  m_capturing = false;
  auto disable = session_params<CUpti_Profiler_DisableProfiling_Params>(
      CUpti_Profiler_DisableProfiling_Params_STRUCT_SIZE, m_context);
  COUNTERGUARD_CUPTI_NOTHROW(cuptiProfilerDisableProfiling(&disable));
  reset_image();
}

// The bound image and scratch buffer as initialised: the next capture's ranges start from 0 again.
void profiler_session::reset_image() noexcept {
  std::copy(m_pristine_image.begin(), m_pristine_image.end(), m_image.begin());
  std::copy(m_pristine_scratch.begin(), m_pristine_scratch.end(), m_scratch.begin());
}

bool session_api_chosen() {
  const char* value = std::getenv("COUNTERGUARD_PROFILER_API");
  if (value == nullptr || std::string(value).empty() || std::string(value) == "session")
    return true;
  if (std::string(value) == "range")
    return false;
  throw input_error({}, "COUNTERGUARD_PROFILER_API", "is '" + std::string(value) + "'",
                    "session (the default) or range");
}

}  // namespace counterguard::detail
