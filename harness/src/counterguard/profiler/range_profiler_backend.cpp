// SPDX-License-Identifier: Apache-2.0
// device_profiler's counters through CUPTI's range profiler (cupti_range_profiler.h), with
// COUNTERGUARD_PROFILER_API=range. Every built-in case measures the same exact values through it as through
// the session API (validation/gpu_checks.sh api). Per capture:
//   [Disable, Enable when the configuration changed], CounterDataImageInitialize (once per configuration and
//   Enable: captures start from a copy), SetConfig (AutoRange, KernelReplay, every field set), Start,
//   the work's launches, Stop (isAllPassSubmitted after one round), DecodeData (numOfRangeDropped).
#include <cupti_range_profiler.h>

#include <map>
#include <memory>
#include <utility>

#include "counterguard/core/error.hpp"
#include "counterguard/cupti/counter_data_image_setup.hpp"
#include "counterguard/cupti/cupti_check.hpp"
#include "detail/profiler_backend.hpp"

namespace counterguard::detail {
namespace {

class range_profiler_backend final : public profiler_backend {
 public:
  explicit range_profiler_backend(CUctx_st* context) : m_context(context) { enable(); }

  ~range_profiler_backend() override {
    if (m_profiler != nullptr) {
      auto params =
          cupti_params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
      params.pRangeProfilerObject = m_profiler;
      COUNTERGUARD_CUPTI_NOTHROW(cuptiRangeProfilerDisable(&params));
    }
  }

  range_profiler_backend(const range_profiler_backend&) = delete;
  range_profiler_backend& operator=(const range_profiler_backend&) = delete;

  // Each capture enables what it needs; nothing is gained by knowing the configurations ahead.
  void reserve(const std::vector<std::vector<std::string>>& /*metric_sets*/, int /*max_ranges*/) override {}

  void begin_capture(const profiler_configuration& config, const std::vector<std::string>& raw_metrics,
                     int max_ranges, std::vector<std::uint8_t>& image, capture_phases& phases) override {
    apply(&config);
    phases.mark("configure");
    pristine_images& pristine = m_pristine[&config];
    if (pristine.enable != m_enables) {
      pristine.by_ranges.clear();
      pristine.enable = m_enables;
    }
    std::vector<std::uint8_t>& initialized = pristine.by_ranges[max_ranges];
    if (initialized.empty())
      initialized = initialized_counter_data_image(m_profiler, raw_metrics, max_ranges);
    image = initialized;
    phases.mark("image_initialize");

    // Kernel replay works only with auto range; CUPTI restores device memory between passes, so
    // non-idempotent kernels measure exactly.
    auto set_config =
        cupti_params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    set_config.pRangeProfilerObject = m_profiler;
    set_config.configSize = config.image.size();
    set_config.pConfig = config.image.data();
    set_config.counterDataImageSize = image.size();
    set_config.pCounterDataImage = image.data();
    set_config.range = CUPTI_AutoRange;
    set_config.replayMode = CUPTI_KernelReplay;
    set_config.maxRangesPerPass = static_cast<std::size_t>(max_ranges);
    set_config.numNestingLevels = 1;
    set_config.minNestingLevel = 1;
    set_config.passIndex = 0;
    set_config.targetNestingLevel = 1;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerSetConfig(&set_config));
    phases.mark("set_config");

    auto start = cupti_params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = m_profiler;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerStart(&start));
  }

  // The replay phase runs from Start to Stop.
  void work_finished(capture_phases& /*phases*/) override {}

  bool end_capture(profile_capture& capture, capture_phases& phases) override {
    auto stop = cupti_params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = m_profiler;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerStop(&stop));
    phases.mark("replay");
    if (stop.isAllPassSubmitted == 0) {
      // With kernel replay CUPTI replays each launch itself, so one Start/Stop round submits every pass; work
      // that launched nothing has nothing to decode.
      if (capture.launches.empty()) {
        capture.image.bytes.clear();
        return false;
      }
      throw api_error("cuptiRangeProfilerStop: passes still pending after one round of kernel replay (" +
                          std::to_string(capture.passes) + " passes expected)",
                      0);
    }

    // Synchronises and fills the image.
    auto decode = cupti_params<CUpti_RangeProfiler_DecodeData_Params>(
        CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
    decode.pRangeProfilerObject = m_profiler;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerDecodeData(&decode));
    phases.mark("decode");
    capture.dropped_ranges = static_cast<int>(decode.numOfRangeDropped);
    static_cast<void>(name_ranges(capture));
    return true;
  }

  void abandon_capture() noexcept override {
    auto stop = cupti_params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = m_profiler;
    COUNTERGUARD_CUPTI_NOTHROW(cuptiRangeProfilerStop(&stop));
  }

 private:
  // Counter-data images as CounterDataImageInitialize left them, by the ranges they hold, for the Enable
  // numbered `enable` (Initialize takes the enabled profiler object): a capture starts from a copy instead of
  // initialising its own, the same image at a fraction of the cost (validation/h200.md, "Per case").
  struct pristine_images {
    std::map<int, std::vector<std::uint8_t>> by_ranges;
    std::uint64_t enable = 0;
  };

  void enable() {
    auto params =
        cupti_params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    params.ctx = m_context;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerEnable(&params));
    m_profiler = params.pRangeProfilerObject;
    ++m_enables;
  }

  void disable() {
    auto params =
        cupti_params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    params.pRangeProfilerObject = m_profiler;
    COUNTERGUARD_CUPTI_CHECK(cuptiRangeProfilerDisable(&params));
    m_profiler = nullptr;
  }

  // Seen on the H200: SetConfig with another config image on a profiler that is already enabled keeps
  // collecting the first configuration's counters (the others evaluate to NaN), so a new configuration
  // enables the profiler again.
  void apply(const profiler_configuration* config) {
    if (m_applied != nullptr && m_applied != config) {
      disable();
      enable();
    }
    m_applied = config;
  }

  CUctx_st* m_context;
  CUpti_RangeProfiler_Object* m_profiler = nullptr;
  std::uint64_t m_enables = 0;                        // how many times the range profiler was enabled
  const profiler_configuration* m_applied = nullptr;  // the configuration the enabled profiler collects
  std::map<const profiler_configuration*, pristine_images> m_pristine;
};

}  // namespace

std::unique_ptr<profiler_backend> make_range_profiler_backend(CUctx_st* context) {
  return std::make_unique<range_profiler_backend>(context);
}

}  // namespace counterguard::detail
