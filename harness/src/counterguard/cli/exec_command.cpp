// SPDX-License-Identifier: Apache-2.0
// `counterguard exec [SUITE...] [options] -- ./program args...`: an unmodified program run with the
// injection library, the launches the cases select profiled and checked (pipeline/exec_run.hpp).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <memory>

#include "counterguard/core/interruption.hpp"
#include "counterguard/pipeline/exec_run.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

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

std::vector<std::string>& program_arguments() {
  static std::vector<std::string> arguments;
  return arguments;
}

void take_exec_program(std::vector<char*>& arguments) {
  // The command's name is the first argument that is not an option (-v may come before it).
  const auto command = std::find_if(arguments.begin() + 1, arguments.end(),
                                    [](const char* argument) { return argument[0] != '-'; });
  if (command == arguments.end())
    return;
  const std::string name(*command);
  const bool runs_a_program =
      name == "exec" || name == "record" ||
      (name == "baseline" && command + 1 != arguments.end() && std::string(*(command + 1)) == "update");
  if (!runs_a_program)
    return;
  const auto separator = std::find_if(command + 1, arguments.end(),
                                      [](const char* argument) { return std::string(argument) == "--"; });
  if (separator == arguments.end())
    return;
  program_arguments().assign(separator + 1, arguments.end());
  arguments.erase(separator, arguments.end());
}

command_action add_exec_command(CLI::App& app, const command_context& /*context*/) {
  auto options = std::make_shared<exec_options>();
  auto cases = std::make_shared<std::vector<std::string>>();
  options->selection.paths.clear();
  CLI::App* command = app.add_subcommand(
      "exec", "run an unmodified CUDA program, profile the kernel launches the cases select and check them");
  add_suite_paths(
      *command, options->selection.paths,
      "suite files or directories: cases with select: (docs/exec.md); a registered variant's case "
      "selects the launches in the NVTX range named after it (what `counterguard launch` marks)");
  add_cases_alias(*command, *cases);
  add_filter_option(*command, options->selection.filter);
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
  add_replay_mode_option(*command, options->replay);
  add_report_options(*command, options->reports, true);
  add_exec_blame_options(*command, *options);
  command->footer(
      "The program and its arguments come last, after '--': counterguard exec F.yaml -- ./app -x");
  return when_chosen(command, [options, cases] {
    check_report_destinations(options->reports.files);
    options->selection.paths.insert(options->selection.paths.end(), cases->begin(), cases->end());
    options->program = program_arguments();
    options->command_line = own_command_line();
    const interruption_guard interruptions;
    return run_exec(*options);
  });
}

}  // namespace counterguard::detail
