// SPDX-License-Identifier: Apache-2.0
// `counterguard exec`: the program run with the injection library, what it recorded measured, judged and
// reported; and `evaluate DIR` of such a recording.
#include "counterguard/pipeline/exec_run.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <iterator>
#include <memory>
#include <set>

#include "counterguard/core/error.hpp"
#include "counterguard/core/interruption.hpp"
#include "counterguard/exec/blamed_launches.hpp"
#include "counterguard/exec/exec_cases.hpp"
#include "counterguard/exec/exec_envelope.hpp"
#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/exec/exec_phase_trace.hpp"
#include "counterguard/exec/exec_recording.hpp"
#include "counterguard/exec/exec_results.hpp"
#include "counterguard/exec/extra_pass_reasons.hpp"
#include "counterguard/exec/injection_library.hpp"
#include "counterguard/exec/recording_directory.hpp"
#include "counterguard/exec/replay_time_breakdown.hpp"
#include "counterguard/pipeline/exec_blame.hpp"
#include "counterguard/pipeline/exec_replay.hpp"
#include "counterguard/pipeline/run_identity.hpp"
#include "counterguard/profiler/driver_gpu_uuids.hpp"
#include "counterguard/profiler/gpu_lock.hpp"
#include "counterguard/runner/program_supervisor.hpp"
#include "detail/static_binary_checks.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;

// The suites' instances and the command line's case.
std::vector<case_instance> exec_instances(const selection_options& selection,
                                          const std::vector<exec_case_request>& command_line_cases) {
  std::vector<case_instance> suite_instances;
  if (!selection.paths.empty()) {
    selection_options allowed = selection;
    allowed.allow_program_cases = true;
    suite_instances = select_instances(allowed);
  }
  return exec_case_instances(std::move(suite_instances), command_line_cases, selection.filter);
}

selector_flags command_line_selection(const exec_options& options) {
  selector_flags flags;
  flags.kernel_name = options.kernel_name;
  flags.nvtx_include = options.nvtx_include;
  flags.launch_skip = options.launch_skip;
  if (options.launch_count > 0)
    flags.launch_count = options.launch_count;
  if (options.max_launches > 0)
    flags.max_launches = options.max_launches;
  return flags;
}

// The locks of every GPU the program could use, in one order so that two runs cannot deadlock.
std::vector<std::unique_ptr<gpu_lock>> lock_gpus(std::vector<std::string> uuids, double wait_seconds) {
  std::sort(uuids.begin(), uuids.end());
  std::vector<std::unique_ptr<gpu_lock>> locks;
  locks.reserve(uuids.size());
  for (const auto& uuid : uuids) {
    locks.push_back(std::make_unique<gpu_lock>(uuid, wait_seconds, [](const std::string& message) {
      std::fprintf(stderr, "counterguard: %s\n", message.c_str());
    }));
  }
  return locks;
}

// The CUDA driver's device count, asked on a thread of its own (its initialisation takes a while).
std::future<int> count_devices_meanwhile() {
  return std::async(std::launch::async, [] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
      static_cast<void>(cudaGetLastError());
      return 0;
    }
    return count;
  });
}

// The GPUs the program could use, to lock: with every GPU visible (no CUDA_VISIBLE_DEVICES) the driver's
// proc files name them at once; otherwise, or without those files, the CUDA driver is asked (about 0.1 s).
std::vector<std::string> program_gpu_uuids(std::future<int>& device_count) {
  std::vector<std::string> uuids;
  if (std::getenv("CUDA_VISIBLE_DEVICES") == nullptr)
    uuids = driver_gpu_uuids();
  if (uuids.empty()) {
    const int devices = device_count.get();
    if (devices == 0) {
      throw environment_error(
          environment_problem::no_gpu,
          "no CUDA GPU is available: `exec` runs the program on one (for static checks of "
          "its kernels without a GPU: counterguard static --binary PROGRAM --cases F.yaml)");
    }
    for (int ordinal = 0; ordinal < devices; ++ordinal) {
      if (std::string uuid = gpu_uuid(ordinal); !uuid.empty())
        uuids.push_back(std::move(uuid));
    }
  }
  return uuids;
}

// The program run once with the injection library, told `requests`, recording into `recording`.
program_outcome run_with_injection(const std::vector<std::string>& argv, double timeout_seconds,
                                   double wait_for_gpu_seconds, const std::vector<std::string>& uuids,
                                   const fs::path& recording, const std::vector<exec_case_request>& requests,
                                   exec_phase_trace& steps, const pass_group_request& groups = {},
                                   const std::string& blame_request_path = {}) {
  const std::string injection = find_injection_library(self_executable());
  const std::string instructions_path = (recording / exec_instructions_file).string();
  exec_instructions instructions{recording.string(), requests};
  instructions.first_pass_group = groups.first_group;
  instructions.pass_group_count = groups.group_count;
  instructions.automatic_replay = groups.automatic;
  save_exec_instructions(instructions_path, instructions);

  steps.phase("instructions");
  const auto locks = lock_gpus(uuids, wait_for_gpu_seconds);
  steps.phase("GPU locks");
  program_launch launch;
  launch.argv = argv;
  launch.timeout_seconds = timeout_seconds;
  // NVTX goes through the injection library, which hands it on to CUPTI; COUNTERGUARD_NVTX_INJECTION_PATH
  // may name CUPTI itself instead (then ranges pushed before the program initialises CUDA are not seen).
  const char* nvtx_injection = std::getenv("COUNTERGUARD_NVTX_INJECTION_PATH");
  launch.environment = {{"CUDA_INJECTION64_PATH", injection},
                        {"NVTX_INJECTION64_PATH",
                         nvtx_injection != nullptr && *nvtx_injection != '\0' ? nvtx_injection : injection},
                        {exec_instructions_variable, instructions_path}};
  if (!blame_request_path.empty())
    launch.environment.emplace_back(exec_blame_variable, blame_request_path);
  const program_outcome program = run_program(launch);
  steps.phase("program");
  // The lock the program's processes took the GPU's counters in turn with (injection/counters_lock.hpp).
  for (const char* lock : {"counters.lock", "counters.lock.waiting"}) {
    std::error_code ignored;
    fs::remove(recording / lock, ignored);
  }
  interruption_guard::throw_if_interrupted();
  return program;
}

void require_program(const std::vector<std::string>& program) {
  if (resolve_program(program.front()).empty()) {
    throw input_error({}, "program", "cannot find an executable '" + program.front() + "'",
                      "give the path of a program, or a name found in PATH");
  }
}

}  // namespace

program_launches record_program_launches(const std::vector<std::string>& program, double timeout_seconds,
                                         double wait_for_gpu_seconds) {
  if (program.empty())
    throw input_error({}, "program", "no program given",
                      "name it after '--': counterguard record F.yaml -- ./app");
  std::future<int> device_count = count_devices_meanwhile();
  require_program(program);
  exec_phase_trace steps = exec_phase_trace::from_environment();
  const std::vector<std::string> uuids = program_gpu_uuids(device_count);
  const recording_directory recording({});
  program_launches launches;
  launches.program =
      run_with_injection(program, timeout_seconds, wait_for_gpu_seconds, uuids, recording.path(), {}, steps);
  launches.processes = load_recorded_processes(recording.path());
  return launches;
}

exec_measurement measure_program(const exec_options& options) {
  exec_phase_trace steps = exec_phase_trace::from_environment();
  const std::vector<exec_case_request> flagged =
      command_line_cases(command_line_selection(options), options.extra_metrics);
  if (options.selection.paths.empty() && flagged.empty()) {
    throw input_error({}, "--cases", "nothing says which launches to measure",
                      "give --cases F.yaml (cases with select: and expect:), or --kernel-name/--nvtx-include "
                      "with --metric");
  }
  if (options.program.empty())
    throw input_error({}, "program", "no program given",
                      "name it after '--': counterguard exec --cases F -- ./app");
  // The CUDA driver's initialisation runs while the cases are read and their metric names checked (which
  // loads CUPTI's host library): both come before the program starts.
  std::future<int> device_count = count_devices_meanwhile();
  const std::vector<case_instance> instances = exec_instances(options.selection, flagged);
  if (instances.empty())
    throw input_error({}, "--filter", "no case instance matches '" + options.selection.filter + "'");
  validate_extra_metrics(options.extra_metrics, options.selection.chip);
  const std::vector<exec_case_request> requests = exec_requests(instances, options.extra_metrics);
  require_program(options.program);

  steps.phase("cases");
  const std::vector<std::string> uuids = program_gpu_uuids(device_count);
  steps.phase("device count");
  const recording_directory recording(options.save_counter_data);
  const auto say = [&options](const std::string& line) {
    if (!options.reports.quiet)
      std::fprintf(stderr, "counterguard: %s\n", line.c_str());
  };
  replayed_program replayed = run_with_replay(
      options.replay, recording,
      [&](const fs::path& directory, const pass_group_request& groups) {
        return run_with_injection(options.program, options.timeout_seconds, options.wait_for_gpu_seconds,
                                  uuids, directory, requests, steps, groups);
      },
      say);
  const program_outcome& program = replayed.program;
  const std::vector<recorded_process>& processes = replayed.processes;
  steps.phase("recording loaded");
  for (const auto& line : describe_extra_passes(processes, instances, options.extra_metrics))
    say(line);
  exec_evaluation evaluation;
  std::optional<device_description> device;
  for (const auto& process : processes) {
    if (!device && process.record.device)
      device = process.record.device;
  }
  const std::vector<kernel_resources> resources = program_resources(processes, options.binaries, device);
  steps.phase("static resources");
  evaluation = evaluate_exec_recording(processes, instances, options.extra_metrics, resources);
  steps.phase("evaluation");
  if (!options.reports.quiet)
    std::fputs(exec_run_summary(program, processes, instances).c_str(), stderr);
  if (evaluation.environment)
    throw environment_error(*evaluation.environment, evaluation.environment_message);

  std::vector<case_instance> checked;
  run_metadata metadata = host_metadata("exec", options.command_line);
  if (evaluation.device)
    adopt_device(metadata, *evaluation.device);
  metadata.replay = replayed.replay;
  if (!options.reports.quiet && !replayed.replay.launches.empty())
    std::fputs(describe_replay_record(replayed.replay).c_str(), stderr);
  run_results results =
      exec_run_results(evaluation, program, options.allow_program_failure, std::move(metadata), checked);
  if (recording.kept()) {
    save_recorded_resources(recording.path(), resources);
    exec_envelope envelope;
    envelope.suite_paths = options.selection.paths;
    envelope.command_line_cases = flagged;
    envelope.extra_metrics = options.extra_metrics;
    envelope.program = program;
    envelope.allow_program_failure = options.allow_program_failure;
    envelope.results = results;
    save_exec_envelope(recording.path(), envelope);
  }
  check_all_expectations(results, checked);
  steps.phase("results");
  if (steps.enabled())
    std::fprintf(stderr, "counterguard exec trace: %s\n", steps.summary().c_str());
  return exec_measurement{std::move(results), program, processes, requests};
}

program_outcome run_program_blame_pass(const exec_options& options,
                                       const std::vector<exec_case_request>& requests,
                                       const recording_directory& recording,
                                       const std::string& blame_request_path) {
  std::future<int> device_count = count_devices_meanwhile();
  exec_phase_trace steps = exec_phase_trace::from_environment();
  return run_with_injection(options.program, options.timeout_seconds, options.wait_for_gpu_seconds,
                            program_gpu_uuids(device_count), recording.path(), requests, steps, {},
                            blame_request_path);
}

int run_exec(const exec_options& options) {
  exec_measurement measured = measure_program(options);
  print_selection_failures(measured.results);
  if (!options.blame)
    return judge_and_report(measured.results, options.reports);
  return judge_and_report(measured.results, options.reports, [&](run_results& judged) {
    blame_failed_exec_cases(judged, options, measured.requests);
  });
}

int evaluate_exec_recording_directory(const evaluate_options& options) {
  run_results results = evaluate_exec_recording_results(options);
  print_selection_failures(results);
  return judge_and_report(results, options.reports);
}

run_results evaluate_exec_recording_results(const evaluate_options& options) {
  const fs::path directory(options.directory);
  const exec_envelope envelope = load_exec_envelope(directory);
  std::vector<case_instance> instances =
      exec_instances(recorded_selection(options.selection, envelope.suite_paths, envelope.results.metadata,
                                        (directory / exec_envelope_file).string()),
                     envelope.command_line_cases);
  if (const fs::path instructions_path = directory / exec_instructions_file; fs::exists(instructions_path)) {
    // As `evaluate` of a `run` recording: the instances the program was profiled for, not cases added to the
    // suites since (those did not fail to select anything; they were never asked for).
    std::set<std::string> instructed;
    for (const auto& request : load_exec_instructions(instructions_path.string()).cases)
      instructed.insert(request.name);
    const auto not_recorded =
        std::stable_partition(instances.begin(), instances.end(),
                              [&](const case_instance& i) { return instructed.count(i.name) != 0; });
    if (not_recorded != instances.end() && !options.reports.quiet) {
      std::fprintf(
          stderr, "counterguard: %zu selected case instances are not in this recording (first: %s)\n",
          static_cast<std::size_t>(std::distance(not_recorded, instances.end())), not_recorded->name.c_str());
    }
    instances.erase(not_recorded, instances.end());
  }
  const std::vector<recorded_process> processes = load_recorded_processes(directory);
  const exec_evaluation evaluation = evaluate_exec_recording(processes, instances, envelope.extra_metrics,
                                                             load_recorded_resources(directory));
  if (evaluation.environment)
    throw environment_error(*evaluation.environment, evaluation.environment_message);
  run_metadata metadata = envelope.results.metadata;
  metadata.mode = "evaluate";
  metadata.command_line = options.command_line;
  if (evaluation.device)
    adopt_device(metadata, *evaluation.device);
  std::vector<case_instance> checked;
  run_results results =
      exec_run_results(evaluation, envelope.program, envelope.allow_program_failure, metadata, checked);
  check_all_expectations(results, checked);
  return results;
}

}  // namespace counterguard
