// SPDX-License-Identifier: Apache-2.0
#include "counterguard/runner/gpu_worker.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <future>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "counterguard/core/cuda_check.hpp"
#include "counterguard/core/cuda_stream.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/timeline.hpp"
#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/cupti/nvperf_host_library.hpp"
#include "counterguard/measurement/case_result_factory.hpp"
#include "counterguard/measurement/measure_case.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/planning/raw_metric_name_check.hpp"
#include "counterguard/planning/worker_configurations.hpp"
#include "counterguard/profiler/device_profiler.hpp"
#include "counterguard/profiler/gpu_lock.hpp"
#include "counterguard/registry/device_memory_reuse.hpp"
#include "counterguard/registry/host_memory_reuse.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/runner/capture_archive_writer.hpp"
#include "counterguard/statics/program_resources.hpp"

namespace counterguard {
namespace {

// Writes one event per line; the parent reads them as they come.
class event_writer {
 public:
  explicit event_writer(int fd) : m_fd(fd) {}
  void write(const worker_event& event) const {
    const std::string line = encode_worker_event(event) + "\n";
    std::size_t written = 0;
    while (written < line.size()) {
      const ssize_t n = ::write(m_fd, line.data() + written, line.size() - written);
      if (n <= 0) {
        throw environment_error(environment_problem::process,
                                "the GPU worker lost the connection to its parent process");
      }
      written += static_cast<std::size_t>(n);
    }
  }

 private:
  int m_fd;
};

// A CUDA error that poisons the context: nothing else can run in this process.
bool context_lost() {
  const cudaError_t status = cudaDeviceSynchronize();
  switch (status) {
    case cudaSuccess:
      return false;
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      static_cast<void>(cudaGetLastError());
      return false;
  }
}

// The profiler, retried while another process holds the GPU's counters (CUPTI_ERROR_HARDWARE_BUSY: ncu,
// DCGM, a counterguard that does not share the lock directory) until the request's wait expires.
std::unique_ptr<device_profiler> open_profiler(const worker_request& request, const event_writer& events) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(request.wait_for_gpu_seconds);
  while (true) {
    try {
      return std::make_unique<device_profiler>(request.device);
    } catch (const environment_error& e) {
      const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
      if (e.problem() != environment_problem::profiler_busy || left <= 0.0)
        throw;
      events.write(gpu_busy_event{std::string("waiting for the GPU: ") + e.what(), left});
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
  }
}

// The GPU's lock for a one-GPU run (worker_request::lock_gpu), the wait reported to the parent; nullptr
// without such a device (open_profiler says why).
std::unique_ptr<gpu_lock> lock_device(const worker_request& request, const event_writer& events) {
  const std::string uuid = gpu_uuid(request.device);
  if (uuid.empty())
    return nullptr;
  auto lock = std::make_unique<gpu_lock>(uuid, request.wait_for_gpu_seconds, [&](const std::string& message) {
    events.write(gpu_busy_event{message, request.wait_for_gpu_seconds});
  });
  timeline_mark("GPU lock held");
  return lock;
}

constexpr int max_launches_per_case = 1024;

// The ranges a case's counter-data image has room for at first.
int initial_max_launches(const kernel_definition& definition) {
  return std::max(2, static_cast<int>(definition.device_functions().size()));
}

struct worker_context {
  device_profiler& profiler;
  cudaStream_t stream;
  const worker_request& request;
  capture_archive_writer* archive;
};

using phase_times = std::map<std::string, double>;  // seconds by phase of a case

bool timing_asked() {
  static const bool asked = std::getenv("COUNTERGUARD_TIMING") != nullptr;
  return asked;
}

void print_timing(const std::string& instance, int configuration, const phase_times& phases) {
  // Diagnostics for tuning the profiler's per-case cost (validation/benchmark_vs_ncu.py,
  // tools/timing_summary.py).
  std::string line = "timing " + instance + " worker=" + std::to_string(::getpid()) +
                     " configuration=" + std::to_string(configuration);
  for (const auto& [name, seconds] : phases)
    line += " " + name + "=" + std::to_string(seconds * 1e3);
  std::fprintf(stderr, "%s (ms)\n", line.c_str());
}

// Collects `raw_metrics` (the worker's profiler configuration for the case: a superset of the case's own
// counters). Returns the time of its phases (evidence for tuning).
phase_times profile_case(const worker_context& context, const case_instance& instance, int archive_index,
                         const std::vector<std::string>& raw_metrics, case_result& result) {
  if (instance.skip_reason) {
    result.status = case_status::skipped;
    result.status_reason = *instance.skip_reason;
    return {};
  }
  const kernel_definition* definition = kernel_registry::global().find(instance.kernel);
  if (definition == nullptr)
    throw internal_error("case '" + instance.name + "' names kernel '" + instance.kernel +
                         "', not registered");
  const device_description& device = context.profiler.device();
  if (definition->required_compute_capability() > device.compute_capability) {
    result.status = case_status::skipped;
    result.status_reason = "needs compute capability " +
                           std::to_string(definition->required_compute_capability()) + ", the device (" +
                           device.name + ") has " + std::to_string(device.compute_capability);
    return {};
  }
  const metric_plan plan = plan_metrics(instance, metric_catalog::builtin(), context.request.extra_metrics);
  // The counter-data image reserves room for every range it may hold, and most cases launch one kernel:
  // start small (small images to keep and commit) and profile again with room to spare if ranges were
  // dropped.
  int max_launches = initial_max_launches(*definition);
  std::unique_ptr<kernel_run> run;
  profile_capture capture;
  while (true) {
    const auto create_start = std::chrono::steady_clock::now();
    run = definition->create(kernel_arguments(instance.parameters, instance.launch));
    COUNTERGUARD_CUDA_CHECK(cudaDeviceSynchronize());  // inputs ready before profiling starts
    const auto created = std::chrono::steady_clock::now();
    capture = context.profiler.profile(
        raw_metrics, instance.name, [&] { run->launch(context.stream); }, max_launches);
    capture.phase_seconds["create"] = std::chrono::duration<double>(created - create_start).count();
    COUNTERGUARD_CUDA_CHECK(cudaStreamSynchronize(context.stream));
    if (capture.dropped_ranges == 0)
      break;
    if (max_launches >= max_launches_per_case) {
      throw error(exit_code::check_failed, "the case launched more than " +
                                               std::to_string(max_launches_per_case) +
                                               " kernels; counterguard profiles at most that many per case");
    }
    max_launches = std::min(max_launches * 8, max_launches_per_case);
  }

  case_observation observation;
  observation.launches = capture.launches;
  observation.image = std::move(capture.image);
  observation.raw_metrics = raw_metrics;  // what the image holds; the plan's metrics are evaluated by name
  for (const auto& metric : plan.metrics)
    observation.metrics.push_back(metric.name);
  observation.kernel_metrics = run->runtime_metrics();
  observation.passes = capture.passes;
  const auto verify_start = std::chrono::steady_clock::now();
  const verification verdict = run->verify();
  const auto verified = std::chrono::steady_clock::now();
  if (verdict.checked)
    observation.verified = verdict.passed;
  observation.unverified = !verdict.checked;
  observation.verification_message = verdict.message;

  measure_case(result, plan, observation, program_kernel_resources());
  const auto measured = std::chrono::steady_clock::now();
  if (context.archive != nullptr && !raw_metrics.empty())
    context.archive->write(archive_index, instance.name, observation, capture.dropped_ranges);
  const auto archived = std::chrono::steady_clock::now();
  run.reset();  // the case's device memory freed here, timed
  phase_times phases = std::move(capture.phase_seconds);
  phases["evaluate"] = std::chrono::duration<double>(measured - verified).count();
  phases["verify"] = std::chrono::duration<double>(verified - verify_start).count();
  phases["archive"] = std::chrono::duration<double>(archived - measured).count();
  phases["release"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - archived).count();
  return phases;
}

void print_configurations_timing(const worker_configurations& configurations, std::size_t cases,
                                 const std::string& chip, const std::string& how) {
  if (!timing_asked())
    return;
  std::fprintf(stderr, "timing profiler configurations: %zu for %zu cases on chip %s, %s\n",
               configurations.configurations().size(), cases, chip.c_str(), how.c_str());
  for (std::size_t c = 0; c < configurations.configurations().size(); ++c) {
    std::fprintf(stderr, "timing configuration=%zu: %zu raw metrics, %d passes\n", c,
                 configurations.configurations()[c].raw_metrics.size(),
                 configurations.configurations()[c].passes);
  }
}

// Where the parent's plan is not for this device's chip (or none came): every raw counter the requested cases
// need must exist on `chip`, checked before anything runs; then the profiler configurations of every case the
// worker may be handed, planned with the chip's pass counts (about 90 ms for the built-in suite on the H200
// host). Throws input_error for a name the chip lacks.
std::unique_ptr<worker_configurations> plan_configurations(
    const worker_request& request, const std::map<std::string, case_instance>& instances,
    const metric_catalog& catalog, const std::string& chip) {
  const metric_name_validator validator(chip);
  raw_metric_name_check names(catalog, validator);
  for (const auto& name : request.instances) {
    if (const auto found = instances.find(name); found != instances.end())
      names.check(found->second);
  }
  const auto planning = std::chrono::steady_clock::now();
  auto configurations = std::make_unique<worker_configurations>(
      request.instances, request.extra_metrics, instances, catalog,
      [&validator](const std::vector<std::string>& metrics) { return validator.pass_count(metrics); },
      configuration_sharing_from_environment());
  print_configurations_timing(
      *configurations, request.instances.size(), chip,
      "planned in " +
          std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - planning).count() *
                         1e3) +
          " ms");
  return configurations;
}

// The worker's profiler configurations: the parent's plan (the first line on standard input, when the request
// names the chip it planned for) where this device has that chip, else planned here for the device's `chip`.
// Throws input_error for a metric name the chip lacks.
std::unique_ptr<worker_configurations> settle_configurations(
    const worker_request& request, const std::map<std::string, case_instance>& instances,
    const metric_catalog& catalog, const std::string& chip) {
  std::string line;
  if (!request.expected_chip.empty() && std::getline(std::cin, line)) {
    const worker_plan plan = decode_worker_plan(line);
    if (plan.planned && plan.chip == chip) {
      if (!plan.problem.empty())
        throw input_error({}, "", plan.problem);
      if (plan.configuration_of.size() != request.instances.size())
        throw internal_error("the worker was sent a plan for " +
                             std::to_string(plan.configuration_of.size()) + " cases, its request names " +
                             std::to_string(request.instances.size()));
      auto configurations = std::make_unique<worker_configurations>(plan);
      print_configurations_timing(*configurations, request.instances.size(), chip, "planned by the parent");
      return configurations;
    }
  }
  return plan_configurations(request, instances, catalog, chip);
}

}  // namespace

int run_gpu_worker(const worker_request& request, int event_fd) {
  reuse_host_memory();
  detail::load_nvperf_host_in_background();  // while CUDA starts; the profiler needs it next
  const event_writer events(event_fd);
  const metric_catalog& catalog = metric_catalog::builtin();
  // The suites are read while CUDA and CUPTI start (on the H200 0.06 s of 320 generated cases against
  // 0.26 s of start-up, measured with COUNTERGUARD_TIMING); the parent plans the configurations meanwhile.
  std::future<std::map<std::string, case_instance>> loading = std::async(std::launch::async, [&] {
    std::map<std::string, case_instance> loaded;
    for (const auto& s : load_suites(request.suite_paths, kernel_registry::global(), catalog)) {
      for (auto& instance : expand_instances(s, kernel_registry::global(), catalog))
        loaded.emplace(instance.name, std::move(instance));
    }
    timeline_mark("worker suites loaded");
    return loaded;
  });
  std::unique_ptr<gpu_lock> lock;  // released as the worker exits, after the profiler below
  std::unique_ptr<device_profiler> profiler;
  try {
    if (request.lock_gpu)
      lock = lock_device(request, events);
    profiler = open_profiler(request, events);
  } catch (const environment_error& e) {
    events.write(environment_error_event{e.problem(), e.what()});
    return static_cast<int>(exit_code::environment);
  }
  std::map<std::string, case_instance> instances = loading.get();
  events.write(device_ready_event{profiler->device()});

  std::unique_ptr<worker_configurations> configurations;
  try {
    configurations = settle_configurations(request, instances, catalog, profiler->device().chip);
  } catch (const input_error& e) {
    events.write(input_error_event{e.what()});
    return static_cast<int>(exit_code::invalid_input);
  }

  timeline_mark("worker configurations planned");
  {
    // One profiling session with room for every configuration and for the first launches of every case.
    std::vector<std::vector<std::string>> metric_sets;
    for (const auto& planned : configurations->configurations())
      metric_sets.push_back(planned.raw_metrics);
    int max_launches = 2;
    for (const auto& name : request.instances) {
      const auto found = instances.find(name);
      const kernel_definition* definition =
          found == instances.end() ? nullptr : kernel_registry::global().find(found->second.kernel);
      if (definition != nullptr)
        max_launches = std::max(max_launches, initial_max_launches(*definition));
    }
    try {
      profiler->reserve(metric_sets, max_launches);
    } catch (const environment_error& e) {  // the counters taken by another process meanwhile
      events.write(environment_error_event{e.problem(), e.what()});
      return static_cast<int>(exit_code::environment);
    }
    timeline_mark("profiler session begun");
  }
  const cuda_stream stream;
  // Cases of one size reuse each other's device memory; what is kept is freed before the profiler goes.
  const device_memory_reuse memory_reuse(std::size_t{256} << 20);
  std::unique_ptr<capture_archive_writer> archive;
  if (!request.save_counter_data_dir.empty()) {
    archive =
        std::make_unique<capture_archive_writer>(request.save_counter_data_dir, profiler->device().chip);
  }
  const worker_context context{*profiler, stream.get(), request, archive.get()};

  // Runs the case at `position` of the request; false when the worker must stop (its exit status in
  // `status`).
  int status = 0;
  const auto run_case = [&](std::size_t position) {
    const auto found = instances.find(request.instances.at(position));
    if (found == instances.end())
      throw internal_error("the worker was asked for unknown case instance '" + request.instances[position] +
                           "'");
    const auto begun = std::chrono::steady_clock::now();
    events.write(case_begin_event{request.instances[position], position});
    case_result result = make_case_result(found->second);
    const auto started = std::chrono::steady_clock::now();
    bool lost = false;
    phase_times phases;
    try {
      phases = profile_case(context, found->second, request.archive_indices.at(position),
                            configurations->raw_metrics(position), result);
    } catch (const environment_error& e) {
      events.write(environment_error_event{e.problem(), e.what()});
      status = static_cast<int>(exit_code::environment);
      return false;
    } catch (const std::exception& e) {
      result.status = case_status::error;
      result.status_reason = e.what();
      lost = context_lost();
      if (lost)
        result.status_reason += " (the CUDA context is lost; later cases run in a new process)";
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (!lost)
      lost = context_lost();
    const auto reported = std::chrono::steady_clock::now();
    events.write(case_result_event{result});
    if (timing_asked() && !phases.empty()) {
      const auto now = std::chrono::steady_clock::now();
      phases["report"] = std::chrono::duration<double>(now - reported).count();
      phases["case"] = std::chrono::duration<double>(now - begun).count();  // all of the case in the worker
      print_timing(found->first, configurations->configuration_of(position), phases);
    }
    status = lost ? worker_context_lost_status : 0;
    return !lost;
  };

  if (request.streamed) {
    // One case per line on standard input, as the parent hands them out; end of input: done.
    std::string line;
    while (std::getline(std::cin, line)) {
      std::size_t position = 0;
      try {
        position = std::stoul(line.substr(0, line.find(' ')));
      } catch (const std::exception&) {
        throw internal_error("the worker was handed a malformed case line '" + line + "'");
      }
      if (!run_case(position))
        return status;
    }
    return 0;
  }
  // The cases of one configuration one after another (fewer profiler switches); the parent places each
  // result by the position its begin event named.
  std::vector<int> planned(request.instances.size());
  for (std::size_t i = 0; i < planned.size(); ++i)
    planned[i] = configurations->configuration_of(i);
  for (const std::size_t position : order_by_configuration(planned)) {
    if (!run_case(position))
      return status;
  }
  timeline_mark("worker cases done");
  return 0;
}

}  // namespace counterguard
