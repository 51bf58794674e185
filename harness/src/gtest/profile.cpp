#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>

#include "counterguard/checker/expectation_checker.hpp"
#include "counterguard/core/cuda_check.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/value_format.hpp"
#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/gtest/profile_result.hpp"
#include "counterguard/measurement/measure_case.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/profiler/gpu_lock.hpp"
#include "counterguard/profiler/range_profiler.hpp"
#include "counterguard/results/run_results.hpp"
#include "counterguard/statics/program_resources.hpp"

namespace counterguard {
namespace {

// The process's one profiler (CUPTI allows one per process), opened on first use and kept: a test binary
// profiles many tests, and holds the GPU's lock meanwhile so other counterguard processes queue.
struct process_profiler {
  std::unique_ptr<gpu_lock> lock;
  std::unique_ptr<range_profiler> profiler;
  std::optional<std::string> unavailable;
  bool opened = false;
  bool under_exec = false;  // `counterguard exec` runs this binary: its injection library is the profiler
};

process_profiler& state() {
  static process_profiler instance;
  return instance;
}

int device_of(const profile_options& options) {
  if (options.device >= 0)
    return options.device;
  const char* text = std::getenv("COUNTERGUARD_DEVICE");
  return text != nullptr ? std::atoi(text) : 0;
}

void open(const profile_options& options) {
  process_profiler& s = state();
  if (s.opened)
    return;
  s.opened = true;
  const char* instructions = std::getenv(exec_instructions_variable);
  if (instructions != nullptr && *instructions != '\0') {
    // A second CUPTI subscriber would fail, and would take the launches from the injection library's cases.
    s.under_exec = true;
    s.unavailable =
        "counterguard exec profiles this process (one CUPTI profiler per process): the counters "
        "are checked by its cases, the test's own checks run as usual";
    return;
  }
  try {
    const int device = device_of(options);
    if (const std::string uuid = gpu_uuid(device); !uuid.empty())
      s.lock = std::make_unique<gpu_lock>(uuid, options.wait_for_gpu_seconds,
                                          std::function<void(const std::string&)>{});
    s.profiler = std::make_unique<range_profiler>(device);
  } catch (const environment_error& e) {
    s.unavailable = std::string("counterguard cannot profile here: ") + e.what();
    s.profiler.reset();
    s.lock.reset();
  }
}

bool matches(const kernel_measurement& kernel, const std::string& name) {
  return function_matches(kernel.function, name);
}

}  // namespace

profile_result::profile_result(case_result result, std::string skip_reason)
    : m_result(std::make_shared<const case_result>(std::move(result))),
      m_skip_reason(std::move(skip_reason)) {}

bool profile_result::has(const std::string& metric) const {
  if (!m_result)
    return false;
  const auto found = m_result->totals.find(metric);
  return found != m_result->totals.end() && !std::isnan(found->second.value);
}

double profile_result::value(const std::string& metric) const {
  if (!m_result)
    return std::numeric_limits<double>::quiet_NaN();
  const auto found = m_result->totals.find(metric);
  return found == m_result->totals.end() ? std::numeric_limits<double>::quiet_NaN() : found->second.value;
}

metric_class profile_result::cls(const std::string& metric) const {
  if (m_result) {
    const auto found = m_result->totals.find(metric);
    if (found != m_result->totals.end())
      return found->second.cls;
  }
  const std::optional<metric_definition> definition = metric_catalog::builtin().try_resolve(metric);
  return definition ? definition->cls : metric_class::exact;
}

profile_result profile_result::for_kernel(const std::string& kernel) const {
  // The launches of `kernel`, totalled the way a case totals its launches.
  case_result narrowed = m_result ? *m_result : case_result{};
  narrowed.kernels.clear();
  narrowed.totals.clear();
  if (m_result) {
    for (const auto& launch : m_result->kernels) {
      if (!matches(launch, kernel))
        continue;
      narrowed.kernels.push_back(launch);
      for (const auto& [metric, value] : launch.metrics) {
        const metric_class metric_cls = cls(metric);
        auto [total, inserted] = narrowed.totals.emplace(metric, metric_value{value, metric_cls});
        if (inserted)
          continue;
        // Counts add up over launches; static and per-launch attributes keep the largest.
        const bool additive =
            metric_catalog::builtin().try_resolve(metric).value_or(metric_definition{}).summable;
        total->second.value = additive ? total->second.value + value : std::max(total->second.value, value);
      }
    }
  }
  return profile_result(std::move(narrowed), m_skip_reason);
}

std::string profile_result::kernel_names() const {
  std::string names;
  if (m_result) {
    for (const auto& launch : m_result->kernels)
      names += (names.empty() ? "" : ", ") + launch.function;
  }
  return names.empty() ? "no kernel launches" : names;
}

std::optional<std::string> profiling_unavailable(const profile_options& options) {
  open(options);
  return state().unavailable;
}

bool profiled_by_exec() {
  open({});
  return state().under_exec;
}

namespace detail {

profile_result profile_work(const std::vector<std::string>& metrics, const std::function<void()>& work,
                            const profile_options& options) {
  const metric_catalog& catalog = metric_catalog::builtin();
  const metric_plan plan = plan_metrics(metrics, catalog);
  case_result result;
  result.instance = "counterguard::profile";
  if (const auto why = profiling_unavailable(options)) {
    if (state().under_exec)
      work();  // the launches are what exec's cases select
    return profile_result(std::move(result), *why);
  }
  profile_capture capture =
      state().profiler->profile(plan.raw_cupti, "counterguard::profile", work, options.max_launches);
  if (capture.dropped_ranges > 0) {
    throw error(exit_code::check_failed, "the profiled work launched more than " +
                                             std::to_string(options.max_launches) +
                                             " kernels; raise profile_options::max_launches");
  }
  case_observation observation;
  observation.launches = capture.launches;
  observation.image = std::move(capture.image);
  observation.raw_metrics = plan.raw_cupti;
  for (const auto& metric : plan.metrics)
    observation.metrics.push_back(metric.name);
  observation.passes = capture.passes;
  observation.unverified = true;  // the test checks its own outputs
  measure_case(result, plan, observation, program_kernel_resources());
  return profile_result(std::move(result));
}

std::optional<std::string> metric_check_failure(const char* result_text, const char* metric_text,
                                                const char* bound_text, const profile_result& result,
                                                const std::string& metric, double bound,
                                                metric_relation relation, double relative_tolerance) {
  if (result.skipped())
    return std::nullopt;  // the test is already marked skipped, with the reason
  const char* relation_text = relation == metric_relation::equal      ? "=="
                              : relation == metric_relation::at_most  ? "<="
                              : relation == metric_relation::at_least ? ">="
                                                                      : "~=";
  if (!result.has(metric)) {
    return "metric '" + metric + "' (" + metric_text + ") was not measured in " + result_text + " (" +
           result.kernel_names() +
           "); a compiler metric needs the kernels linked with counterguard_link_kernels, a per-kernel one a "
           "kernel that ran";
  }
  const double measured = result.value(metric);
  resolved_expectation expectation;
  expectation.metric = metric;
  expectation.tolerance = relative_tolerance;
  constexpr double unbounded = std::numeric_limits<double>::infinity();
  expectation.kind = relation == metric_relation::at_most    ? comparison::max
                     : relation == metric_relation::at_least ? comparison::min
                                                             : comparison::equals;
  expectation.lower = relation == metric_relation::at_most ? -unbounded : bound;
  expectation.upper = relation == metric_relation::at_least ? unbounded : bound;
  if (satisfies(expectation, measured))
    return std::nullopt;
  std::string failure = "metric '" + metric + "' of " + result.kernel_names() + ": expected " +
                        relation_text + " " + format_value(bound) + " (" + bound_text + ")";
  if (relation == metric_relation::near)
    failure += " within " + format_value(relative_tolerance * 100) + "%";
  failure += ", measured " + format_value(measured) + " (" + to_string(result.cls(metric)) + ")";
  return failure;
}

}  // namespace detail
}  // namespace counterguard
