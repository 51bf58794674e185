// SPDX-License-Identifier: Apache-2.0
// `counterguard record FILE [options] -- ./program args...`: a suite written from what an unmodified program
// launched (pipeline/program_recording.hpp).
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/core/interruption.hpp"
#include "counterguard/pipeline/program_recording.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

command_action add_record_command(CLI::App& app, const command_context& /*context*/) {
  auto options = std::make_shared<record_options>();
  CLI::App* command = app.add_subcommand(
      "record",
      "run an unmodified CUDA program and write a suite selecting the kernel launches it made, for "
      "`baseline update` and `exec` to gate");
  command->add_option("file", options->file, "the suite file to write")->required()->type_name("FILE");
  command
      ->add_option("--runs", options->runs, "runs of the program; the suite selects what every run launched")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  command->add_option("--metric", options->metrics,
                      "measure this metric in every case instead of the default exact ones (repeatable)");
  command->add_option("--suite", options->suite, "the suite's name (default: the file's name)");
  command->add_flag("--force", options->force, "write over an existing FILE");
  command
      ->add_option("--timeout", options->timeout_seconds,
                   "seconds before a run of the program is killed (0: never)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  add_gpu_wait_option(*command, options->wait_for_gpu_seconds,
                      "seconds to wait while another counterguard holds a GPU");
  command->add_flag("--allow-program-failure", options->allow_program_failure,
                    "write the suite even when the program fails");
  command->footer(
      "The program and its arguments come last, after '--': counterguard record kernels.yaml -- ./app -x");
  return when_chosen(command, [options] {
    options->program = program_arguments();
    const interruption_guard interruptions;
    return record_program_suite(*options);
  });
}

}  // namespace counterguard::detail
