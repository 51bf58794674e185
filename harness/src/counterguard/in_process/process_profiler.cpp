// SPDX-License-Identifier: Apache-2.0
#include "counterguard/in_process/process_profiler.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>

#include "counterguard/baselines/gpu_key.hpp"
#include "counterguard/build_info.hpp"
#include "counterguard/evaluator/counter_data_archive.hpp"
#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/in_process/recorded_block.hpp"
#include "counterguard/measurement/measure_case.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/profiler/device_profiler.hpp"
#include "counterguard/profiler/gpu_lock.hpp"
#include "counterguard/statics/program_resources.hpp"
#include "detail/profiled_work.hpp"

namespace counterguard {
namespace {

// The range every profiled block's launches are marked with in ncu/nsys timelines.
constexpr const char* profile_range_name = "counterguard::profile";

// A block begun and not yet ended.
struct open_block {
  metric_plan plan;
  profile_options options;
  std::chrono::steady_clock::time_point started;
};

struct process_profiler {
  std::unique_ptr<gpu_lock> lock;
  std::unique_ptr<device_profiler> profiler;
  std::optional<std::string> unavailable;
  std::optional<environment_problem> problem;
  bool opened = false;
  bool under_exec = false;  // `counterguard exec` runs this process: its injection library is the profiler
  std::optional<open_block> block;
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
    s.profiler = std::make_unique<device_profiler>(device);
  } catch (const environment_error& e) {
    s.unavailable = std::string("counterguard cannot profile here: ") + e.what();
    s.problem = e.problem();
    s.profiler.reset();
    s.lock.reset();
  }
}

// Launch metrics of launches whose attributes could not be read are unknown, not 0 (as under exec).
void drop_launch_metrics(metric_plan& plan) {
  plan.metrics.erase(
      std::remove_if(plan.metrics.begin(), plan.metrics.end(),
                     [](const metric_definition& m) { return m.source == metric_source::launch; }),
      plan.metrics.end());
}

// Observed launches and counters turned into a result by the one measurement path (measure_case), the
// observation kept for for_kernel.
profile_result measure_work(metric_plan plan, std::vector<profiled_launch> launches, counter_data_image image,
                            std::vector<std::string> raw_metrics, int passes, double seconds,
                            bool launch_attributes_known, std::vector<kernel_resources> loaded_kernels = {}) {
  auto work = std::make_shared<profiled_work>();
  work->plan = std::move(plan);
  work->launch_attributes_known = launch_attributes_known;
  if (loaded_kernels.empty()) {
    // The program's kernels; a non-owning pointer to the process-wide list.
    work->resources = std::shared_ptr<const std::vector<kernel_resources>>(std::shared_ptr<void>{},
                                                                           &program_kernel_resources());
  } else {
    // What the driver loaded (a JIT-compiled kernel's only resources, and what ran) ahead of the program's.
    const std::vector<kernel_resources>& program = program_kernel_resources();
    loaded_kernels.insert(loaded_kernels.end(), program.begin(), program.end());
    work->resources = std::make_shared<const std::vector<kernel_resources>>(std::move(loaded_kernels));
  }
  case_observation observation;
  observation.launches = std::move(launches);
  observation.image = std::move(image);
  observation.raw_metrics = std::move(raw_metrics);
  for (const auto& metric : work->plan.metrics)
    observation.metrics.push_back(metric.name);
  observation.passes = passes;
  observation.unverified = true;  // the caller checks its own outputs
  case_result result;
  result.instance = profile_range_name;
  measure_case(result, work->plan, observation, *work->resources);
  result.seconds = seconds;
  work->launches = std::move(observation.launches);
  work->image = std::move(observation.image);
  work->raw_metrics = std::move(observation.raw_metrics);
  return profile_result(std::move(result), std::shared_ptr<const profiled_work>(std::move(work)));
}

}  // namespace

std::optional<std::string> profiling_unavailable(const profile_options& options) {
  open(options);
  return state().unavailable;
}

std::optional<environment_problem> profiling_unavailable_problem(const profile_options& options) {
  open(options);
  return state().problem;
}

bool profiled_by_exec() {
  open({});
  return state().under_exec;
}

bool profile_open() {
  return state().block.has_value();
}

void begin_profile(const std::vector<std::string>& metrics, const profile_options& options) {
  const metric_plan plan = plan_metrics(metrics, metric_catalog::builtin());
  process_profiler& s = state();
  if (s.block) {
    throw input_error({}, "profile", "a profiled block is already open",
                      "end it first: profiled blocks do not nest (one CUPTI profiler per process)");
  }
  if (const auto why = profiling_unavailable(options)) {
    // Under exec there is no environment problem to name: the process is profiled, by someone else.
    throw environment_error(s.problem.value_or(environment_problem::under_external_profiler), *why);
  }
  s.profiler->begin_capture(plan.raw_cupti, profile_range_name, options.max_launches);
  s.block = open_block{plan, options, std::chrono::steady_clock::now()};
}

void abandon_profile() noexcept {
  process_profiler& s = state();
  if (!s.block)
    return;
  s.block.reset();
  if (s.profiler != nullptr)
    s.profiler->abandon_capture();
}

profile_result end_profile() {
  process_profiler& s = state();
  if (!s.block)
    throw input_error({}, "profile", "no profiled block is open", "begin one first");
  const open_block block = std::move(*s.block);
  s.block.reset();
  profile_capture capture = s.profiler->end_capture();
  if (capture.dropped_ranges > 0) {
    throw error(exit_code::check_failed, "the profiled work launched more than " +
                                             std::to_string(block.options.max_launches) +
                                             " kernels; raise the profile's max_launches");
  }
  metric_plan plan = block.plan;
  if (!capture.launch_attributes_known)
    drop_launch_metrics(plan);
  std::vector<std::string> raw_metrics = plan.raw_cupti;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - block.started).count();
  return measure_work(std::move(plan), std::move(capture.launches), std::move(capture.image),
                      std::move(raw_metrics), capture.passes, seconds, capture.launch_attributes_known,
                      std::move(capture.loaded_kernels));
}

profile_result profile_work(const std::vector<std::string>& metrics, const std::function<void()>& work,
                            const profile_options& options) {
  if (const auto why = profiling_unavailable(options)) {
    static_cast<void>(plan_metrics(metrics, metric_catalog::builtin()));  // unknown names are errors anyway
    if (profiled_by_exec())
      work();  // the launches are what exec's cases select
    case_result result;
    result.instance = profile_range_name;
    return profile_result(std::move(result), *why);
  }
  begin_profile(metrics, options);
  try {
    work();
  } catch (...) {
    abandon_profile();
    throw;
  }
  return end_profile();
}

profile_result measure_recorded_block(const std::string& archive_directory, std::size_t case_index,
                                      const std::vector<std::string>& metrics) {
  const metric_plan plan = plan_metrics(metrics, metric_catalog::builtin());
  counter_data_archive archive = load_counter_data_archive(archive_directory);
  if (case_index >= archive.cases.size()) {
    throw input_error({archive_directory, 0, 0}, "cases",
                      "the archive holds " + std::to_string(archive.cases.size()) + " cases, not case " +
                          std::to_string(case_index),
                      "give an index below " + std::to_string(archive.cases.size()));
  }
  archived_case& recorded = archive.cases[case_index];
  // A block saved by save_profiled_block says how it was measured; `run` archives leave the defaults.
  const recorded_block_facts facts = read_recorded_block_facts(archive_directory, archive);
  metric_plan measured = plan;
  if (!facts.launch_attributes_known)
    drop_launch_metrics(measured);
  // The counters the image holds are what is evaluated; metrics needing others stay unmeasured.
  return measure_work(std::move(measured), std::move(recorded.launches), std::move(recorded.image),
                      std::move(recorded.raw_metrics), recorded.passes, facts.seconds,
                      facts.launch_attributes_known, facts.resources);
}

run_metadata profiled_device_metadata() {
  if (const auto why = profiling_unavailable())
    throw environment_error(state().problem.value_or(environment_problem::under_external_profiler), *why);
  run_metadata m;
  m.counterguard_version = COUNTERGUARD_VERSION;
  m.device = state().profiler->device();
  m.gpu_key = make_gpu_key(m.device);
  return m;
}

}  // namespace counterguard
