// `counterguard exec [--cases F.yaml] [options] -- ./program args...`: runs an unmodified program with the
// counterguard injection library loaded into each of its processes, profiles the kernel launches the cases
// select, and checks them like `run` (docs/exec.md). `evaluate DIR` re-evaluates what it recorded.
#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <stdlib.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <map>
#include <memory>
#include <set>

#include "commands.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/interruption.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/exec/exec_phase_trace.hpp"
#include "counterguard/exec/exec_recording.hpp"
#include "counterguard/exec/replay_cost.hpp"
#include "counterguard/measurement/metric_plan.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/launch_selector_parser.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/profiler/driver_gpu_uuids.hpp"
#include "counterguard/profiler/gpu_lock.hpp"
#include "counterguard/runner/program_supervisor.hpp"
#include "counterguard/statics/binary_resources.hpp"
#include "static_binary_checks.hpp"

namespace counterguard::detail {
namespace {

namespace fs = std::filesystem;

constexpr const char* injection_file = "libcounterguard_injection.so";
// A registered variant's instance under exec: every launch in its NVTX range, as many as `run` profiles.
constexpr std::int64_t launches_per_registered_case = 1024;

struct exec_options {
  selection_options selection;
  report_options reports;
  std::string kernel_name;
  std::string nvtx_include;
  std::int64_t launch_skip = 0;
  std::int64_t launch_count = 0;  // 0: not given
  std::int64_t max_launches = 0;  // 0: not given
  std::vector<std::string> extra_metrics;
  std::vector<std::string> binaries;
  std::vector<std::string> program;
  std::string save_counter_data;
  double timeout_seconds = 600.0;
  double wait_for_gpu_seconds = 600.0;
  bool allow_program_failure = false;
  std::string command_line;
};

// This process's command line, as results record it.
std::string own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (char& c : text) {
    if (c == '\0')
      c = ' ';
  }
  while (!text.empty() && text.back() == ' ')
    text.pop_back();
  return text;
}

// The program and its arguments, split off the command line before CLI11 parses it (take_exec_program).
std::vector<std::string>& program_arguments() {
  static std::vector<std::string> arguments;
  return arguments;
}

case_instance program_instance() {
  case_instance instance;
  instance.suite = "exec";
  instance.case_name = "program";
  instance.name = "exec/program";
  return instance;
}

// The launches inside the NVTX range named after the instance: what `counterguard launch` marks.
launch_selector registered_case_selector(const case_instance& instance) {
  launch_selector selector;
  nvtx_selector nvtx;
  nvtx.path.push_back(name_pattern::exact(instance.name));
  selector.nvtx = std::move(nvtx);
  selector.max_launches = launches_per_registered_case;
  selector.where = instance.where;
  return selector;
}

case_instance command_line_instance(const exec_case_request& request) {
  case_instance instance;
  const std::size_t slash = request.name.find('/');
  instance.suite = request.name.substr(0, slash);
  instance.case_name = request.name.substr(slash + 1);
  instance.name = request.name;
  instance.select = request.selector;
  return instance;
}

// The suites' instances (a registered variant's selects its NVTX range) and the command line's case.
std::vector<case_instance> exec_instances(const selection_options& selection,
                                          const std::vector<exec_case_request>& command_line_cases) {
  std::vector<case_instance> instances;
  if (!selection.paths.empty()) {
    selection_options allowed = selection;
    allowed.allow_program_cases = true;
    instances = select_instances(allowed);
  }
  for (auto& instance : instances) {
    if (!instance.select)
      instance.select = registered_case_selector(instance);
  }
  std::vector<case_instance> flagged;
  flagged.reserve(command_line_cases.size());
  for (const auto& request : command_line_cases)
    flagged.push_back(command_line_instance(request));
  flagged = filter_instances(std::move(flagged), selection.filter);
  instances.insert(instances.end(), flagged.begin(), flagged.end());
  std::set<std::string> names;
  for (const auto& instance : instances) {
    if (!names.insert(instance.name).second)
      throw input_error(instance.where, "name", "case instance '" + instance.name + "' is selected twice");
  }
  return instances;
}

std::vector<exec_case_request> requests_for(const std::vector<case_instance>& instances,
                                            const std::vector<std::string>& extra_metrics) {
  std::vector<exec_case_request> requests;
  for (const auto& instance : instances) {
    if (instance.skip_reason)
      continue;
    exec_case_request request;
    request.name = instance.name;
    request.selector = *instance.select;
    const metric_plan plan = plan_metrics(instance, metric_catalog::builtin(), extra_metrics);
    request.raw_metrics = plan.raw_cupti;
    request.own_configuration = measures_noisy_metric(instance, plan);
    requests.push_back(std::move(request));
  }
  return requests;
}

std::vector<exec_case_request> command_line_cases(const exec_options& options) {
  if (options.kernel_name.empty() && options.nvtx_include.empty())
    return {};
  selector_flags flags;
  flags.kernel_name = options.kernel_name;
  flags.nvtx_include = options.nvtx_include;
  flags.launch_skip = options.launch_skip;
  if (options.launch_count > 0)
    flags.launch_count = options.launch_count;
  if (options.max_launches > 0)
    flags.max_launches = options.max_launches;
  if (options.extra_metrics.empty()) {
    throw input_error({}, "--metric", "--kernel-name/--nvtx-include select launches but no metric is named",
                      "name what to measure: --metric dram__bytes_read.sum (repeatable; aliases from "
                      "docs/metrics.md work too), or give --cases with expectations");
  }
  return {exec_case_request{"exec/selection", selector_from_flags(flags), {}}};
}

// --metric names: an alias of docs/metrics.md, or a raw CUPTI name the chip has.
void validate_extra_metrics(const std::vector<std::string>& names, const std::string& chip) {
  const metric_catalog& catalog = metric_catalog::builtin();
  std::unique_ptr<metric_name_validator> validator;
  for (const auto& name : names) {
    if (catalog.find_alias(name) != nullptr)
      continue;
    if (!metric_catalog::looks_like_raw_cupti_name(name)) {
      throw input_error({}, "--metric", "unknown metric '" + name + "'",
                        did_you_mean(name, catalog.closest_aliases(name)) +
                            "a metric is an alias from docs/metrics.md or a raw CUPTI name such as "
                            "'dram__bytes_read.sum'");
    }
    if (!validator)
      validator = std::make_unique<metric_name_validator>(chip);
    for (const auto& raw : catalog.resolve(name).raw_inputs) {
      if (!validator->is_valid(raw)) {
        throw input_error({}, "--metric", "no CUPTI metric '" + raw + "' on chip " + chip,
                          "did you mean: " + comma_list(validator->suggestions(raw)));
      }
    }
  }
}

bool is_file(const fs::path& path) {
  std::error_code status;
  return fs::is_regular_file(path, status);
}

// COUNTERGUARD_INJECTION_PATH, else next to this program (build tree and installed layouts), else where
// this build put it.
std::string find_injection_library() {
  if (const char* variable = std::getenv("COUNTERGUARD_INJECTION_PATH");
      variable != nullptr && *variable != '\0') {
    if (!is_file(variable)) {
      throw environment_error(environment_problem::file_system,
                              std::string("COUNTERGUARD_INJECTION_PATH names '") + variable +
                                  "', which is not a file; point it at libcounterguard_injection.so");
    }
    return fs::absolute(variable).string();
  }
  const fs::path self = fs::path(self_executable()).parent_path();
  // Next to it and in its lib/ (build trees; runners get a copy from counterguard_add_runner), then where
  // `cmake --install` puts it relative to the installed tool.
  std::vector<fs::path> candidates{self / injection_file, self / "lib" / injection_file,
                                   self.parent_path() / COUNTERGUARD_INJECTION_INSTALL_DIR / injection_file,
                                   self.parent_path() / "lib" / injection_file};
#ifdef COUNTERGUARD_INJECTION_BUILD_PATH
  candidates.emplace_back(COUNTERGUARD_INJECTION_BUILD_PATH);
#endif
  for (const auto& candidate : candidates) {
    if (is_file(candidate))
      return candidate.string();
  }
  throw environment_error(environment_problem::file_system,
                          std::string("cannot find ") + injection_file + " next to " + self.string() +
                              " (build the counterguard_injection target) or in COUNTERGUARD_INJECTION_PATH");
}

// Where the run records: --save-counter-data DIR (kept), or a temporary directory removed afterwards.
class recording_directory {
 public:
  explicit recording_directory(const std::string& requested) {
    if (requested.empty()) {
      std::string pattern = (fs::temp_directory_path() / "counterguard-exec-XXXXXX").string();
      if (::mkdtemp(pattern.data()) == nullptr) {
        throw environment_error(
            environment_problem::file_system,
            "cannot create a temporary directory for the recording in " + fs::temp_directory_path().string());
      }
      m_path = pattern;
      m_temporary = true;
      return;
    }
    m_path = fs::absolute(requested);
    std::error_code status;
    if (fs::exists(m_path, status) && !fs::is_empty(m_path, status)) {
      if (!is_exec_recording(m_path) && !fs::exists(m_path / exec_instructions_file)) {
        throw input_error(
            {requested}, "--save-counter-data", "the directory is not empty",
            "give a new or empty directory, or one an earlier `counterguard exec` recorded into");
      }
      // An earlier recording is replaced, never mixed with this one.
      fs::remove_all(m_path / "processes", status);
      fs::remove(m_path / exec_envelope_file, status);
    }
    fs::create_directories(m_path, status);
    if (status) {
      throw environment_error(environment_problem::file_system,
                              "cannot create " + m_path.string() + ": " + status.message());
    }
  }
  recording_directory(const recording_directory&) = delete;
  recording_directory& operator=(const recording_directory&) = delete;
  ~recording_directory() {
    if (m_temporary) {
      std::error_code ignored;
      fs::remove_all(m_path, ignored);
    }
  }
  [[nodiscard]] const fs::path& path() const { return m_path; }
  [[nodiscard]] bool kept() const { return !m_temporary; }

 private:
  fs::path m_path;
  bool m_temporary = false;
};

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

// The compiler resources of the kernels in the programs that ran and in --binary files, for the device's
// architecture: what static metrics of exec cases read.
std::vector<kernel_resources> program_resources(const std::vector<recorded_process>& processes,
                                                const std::vector<std::string>& binaries,
                                                const std::optional<run_metadata>& device) {
  std::vector<std::string> files;
  for (const auto& process : processes) {
    if (!process.record.process.executable.empty())
      files.push_back(process.record.process.executable);
  }
  files.insert(files.end(), binaries.begin(), binaries.end());
  const std::string architecture = device ? "sm_" + std::to_string(device->compute_capability) : "";
  std::vector<kernel_resources> resources;
  std::set<std::string> read;
  for (const auto& file : files) {
    if (!read.insert(file).second)
      continue;
    try {
      for (auto& kernel : read_binary_kernel_resources(file)) {
        if (architecture.empty() || kernel.architecture == architecture)
          resources.push_back(std::move(kernel));
      }
    } catch (const input_error& e) {
      // A program without device code of its own (a script, an interpreter): its kernels live in libraries,
      // which --binary names. Only a file the user named is worth a message.
      if (std::find(binaries.begin(), binaries.end(), file) != binaries.end())
        throw;
    }
  }
  return resources;
}

run_results assemble_results(const exec_evaluation& evaluation, const program_outcome& program,
                             bool allow_program_failure, run_metadata metadata,
                             std::vector<case_instance>& checked) {
  run_results results;
  results.metadata = std::move(metadata);
  if (evaluation.device)
    adopt_device(results.metadata, *evaluation.device);
  results.cases.push_back(program_case_result(program, allow_program_failure));
  results.cases.insert(results.cases.end(), evaluation.results.begin(), evaluation.results.end());
  checked.clear();
  checked.push_back(program_instance());
  checked.insert(checked.end(), evaluation.instances.begin(), evaluation.instances.end());
  return results;
}

void print_summary(const program_outcome& program, const std::vector<recorded_process>& processes,
                   const std::vector<case_instance>& instances) {
  std::string command;
  for (const auto& argument : program.argv)
    command += (command.empty() ? "" : " ") + argument;
  std::fputs(fmt::format("counterguard: '{}' {}; {} process{} ran with the injection\n", command,
                         program.describe(), processes.size(), processes.size() == 1 ? "" : "es")
                 .c_str(),
             stderr);
  for (const auto& process : processes) {
    std::int64_t profiled = 0;
    for (const auto& progress : process.record.cases)
      profiled += progress.profiled;
    std::fputs(fmt::format("counterguard:   {}: {} kernel launches, {} profiled{}\n",
                           describe_process(process.record.process), process.record.launches, profiled,
                           process.record.finished ? "" : " (it did not reach exit: crashed or killed)")
                   .c_str(),
               stderr);
    for (const auto& progress : process.record.cases) {
      const auto instance = std::find_if(instances.begin(), instances.end(),
                                         [&](const case_instance& i) { return i.name == progress.name; });
      if (instance == instances.end() || !instance->select)
        continue;
      const std::int64_t wanted = progress.matches - instance->select->launch_skip;
      if (wanted > progress.profiled && !instance->select->launch_count) {
        std::fputs(
            fmt::format("counterguard:     {}: profiled {} of {} matching launches (max_launches {})\n",
                        progress.name, progress.profiled, progress.matches, instance->select->max_launches)
                .c_str(),
            stderr);
      }
    }
  }
  if (const std::optional<std::string> note = describe_replay_cost(processes))
    std::fputs(("counterguard: " + *note + "\n").c_str(), stderr);
}

int run_exec(const exec_options& options) {
  exec_phase_trace steps = exec_phase_trace::from_environment();
  const std::vector<exec_case_request> flagged = command_line_cases(options);
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
  std::future<int> device_count = std::async(std::launch::async, [] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
      static_cast<void>(cudaGetLastError());
      return 0;
    }
    return count;
  });
  const std::vector<case_instance> instances = exec_instances(options.selection, flagged);
  if (instances.empty())
    throw input_error({}, "--filter", "no case instance matches '" + options.selection.filter + "'");
  validate_extra_metrics(options.extra_metrics, options.selection.chip);
  const std::vector<exec_case_request> requests = requests_for(instances, options.extra_metrics);
  if (resolve_program(options.program.front()).empty()) {
    throw input_error({}, "program", "cannot find an executable '" + options.program.front() + "'",
                      "give the path of a program, or a name found in PATH");
  }

  steps.phase("cases");
  // The GPUs the program could use, to lock: with every GPU visible (no CUDA_VISIBLE_DEVICES) the driver's
  // proc files name them at once; otherwise, or without those files, the CUDA driver is asked (about 0.1 s).
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
  steps.phase("device count");
  const std::string injection = find_injection_library();
  const recording_directory recording(options.save_counter_data);
  const std::string instructions_path = (recording.path() / exec_instructions_file).string();
  save_exec_instructions(instructions_path, exec_instructions{recording.path().string(), requests});

  steps.phase("instructions");
  const auto locks = lock_gpus(uuids, options.wait_for_gpu_seconds);
  steps.phase("GPU locks");
  program_launch launch;
  launch.argv = options.program;
  launch.timeout_seconds = options.timeout_seconds;
  // NVTX goes through the injection library, which hands it on to CUPTI; COUNTERGUARD_NVTX_INJECTION_PATH
  // may name CUPTI itself instead (then ranges pushed before the program initialises CUDA are not seen).
  const char* nvtx_injection = std::getenv("COUNTERGUARD_NVTX_INJECTION_PATH");
  launch.environment = {{"CUDA_INJECTION64_PATH", injection},
                        {"NVTX_INJECTION64_PATH",
                         nvtx_injection != nullptr && *nvtx_injection != '\0' ? nvtx_injection : injection},
                        {exec_instructions_variable, instructions_path}};
  const program_outcome program = run_program(launch);
  steps.phase("program");
  // The lock the program's processes took the GPU's counters in turn with (injection/counters_lock.hpp).
  for (const char* lock : {"counters.lock", "counters.lock.waiting"}) {
    std::error_code ignored;
    fs::remove(recording.path() / lock, ignored);
  }
  interruption_guard::throw_if_interrupted();

  const std::vector<recorded_process> processes = load_recorded_processes(recording.path());
  steps.phase("recording loaded");
  exec_evaluation evaluation;
  std::optional<run_metadata> device;
  for (const auto& process : processes) {
    if (!device && process.record.device)
      device = process.record.device;
  }
  const std::vector<kernel_resources> resources = program_resources(processes, options.binaries, device);
  steps.phase("static resources");
  evaluation = evaluate_exec_recording(processes, instances, options.extra_metrics, resources);
  steps.phase("evaluation");
  if (!options.reports.quiet)
    print_summary(program, processes, instances);
  if (evaluation.environment)
    throw environment_error(*evaluation.environment, evaluation.environment_message);

  std::vector<case_instance> checked;
  run_results results = assemble_results(evaluation, program, options.allow_program_failure,
                                         host_metadata("exec", options.command_line), checked);
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
  print_selection_failures(results);
  const int status = judge_and_report(results, options.reports);
  steps.phase("results and reports");
  if (steps.enabled())
    std::fprintf(stderr, "counterguard exec trace: %s\n", steps.summary().c_str());
  return status;
}

}  // namespace

void take_exec_program(std::vector<char*>& arguments) {
  if (arguments.size() < 2 || std::string(arguments[1]) != "exec")
    return;
  const auto separator = std::find_if(arguments.begin() + 2, arguments.end(),
                                      [](const char* argument) { return std::string(argument) == "--"; });
  if (separator == arguments.end())
    return;
  program_arguments().assign(separator + 1, arguments.end());
  arguments.erase(separator, arguments.end());
}

int run_exec_evaluate(const evaluate_options& options) {
  const fs::path directory(options.directory);
  const exec_envelope envelope = load_exec_envelope(directory);
  selection_options selection = options.selection;
  if (selection.paths.empty())
    selection.paths = envelope.suite_paths;
  if (!envelope.results.metadata.chip.empty())
    selection.chip = envelope.results.metadata.chip;
  std::vector<case_instance> instances = exec_instances(selection, envelope.command_line_cases);
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
  std::vector<case_instance> checked;
  run_results results =
      assemble_results(evaluation, envelope.program, envelope.allow_program_failure, metadata, checked);
  check_all_expectations(results, checked);
  print_selection_failures(results);
  return judge_and_report(results, options.reports);
}

command_action add_exec_command(CLI::App& app) {
  auto options = std::make_shared<exec_options>();
  options->selection.paths.clear();
  CLI::App* command = app.add_subcommand(
      "exec", "run an unmodified CUDA program, profile the kernel launches the cases select and check them");
  command->add_option(
      "--cases", options->selection.paths,
      "suite files or directories: cases with select: (docs/exec.md); a registered variant's case "
      "selects the launches in the NVTX range named after it (what `counterguard launch` marks)");
  command->add_option("--filter", options->selection.filter,
                      "only case instances whose name matches (* is a wildcard)");
  command->add_option("--chip", options->selection.chip, "chip that raw CUPTI metric names are validated for")
      ->capture_default_str();
  command->add_option(
      "--kernel-name,-k", options->kernel_name,
      "as ncu: also a case 'exec/selection' of the launches of this kernel (a name or glob, or "
      "regex:EXPR)");
  command->add_option(
      "--nvtx-include", options->nvtx_include,
      "as ncu: only launches inside these NVTX ranges ('[Domain@]outer/inner/' for push/pop ranges, "
      "a name without the trailing '/' for a start/end range)");
  command
      ->add_option("--launch-skip,-s", options->launch_skip, "as ncu: matching launches to let through first")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--launch-count,-c", options->launch_count, "as ncu: matching launches to profile")
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--max-launches", options->max_launches,
                   "most launches the command-line selection profiles (default 64)")
      ->check(CLI::PositiveNumber);
  command->add_option("--metric", options->extra_metrics,
                      "also measure this metric in every case (repeatable)");
  command->add_option("--binary", options->binaries,
                      "also read kernel resources (static metrics) from this library or binary (repeatable)");
  command->add_option(
      "--save-counter-data", options->save_counter_data,
      "keep the recording here (counter data of every profiled launch, one folder per process) "
      "for `counterguard evaluate DIR`");
  command
      ->add_option("--timeout", options->timeout_seconds, "seconds before the program is killed (0: never)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--allow-program-failure", options->allow_program_failure,
                    "a program that exits with a non-zero status (or is killed) does not fail the run");
  command
      ->add_option("--wait-for-gpu", options->wait_for_gpu_seconds,
                   "seconds to wait while another counterguard holds a GPU")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  add_report_options(*command, options->reports, true);
  command->footer(
      "The program and its arguments come last, after '--': counterguard exec --cases F.yaml -- ./app -x");
  return [options, command]() -> std::optional<int> {
    if (!*command)
      return std::nullopt;
    options->program = program_arguments();
    options->command_line = own_command_line();
    const interruption_guard interruptions;
    return run_exec(*options);
  };
}

}  // namespace counterguard::detail
