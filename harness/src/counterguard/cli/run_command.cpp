// SPDX-License-Identifier: Apache-2.0
// `counterguard run`: profile the cases on the GPU and check them (pipeline/profiling_run.hpp).
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/core/interruption.hpp"
#include "counterguard/pipeline/profiling_run.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

command_action add_run_command(CLI::App& app, const command_context& context) {
  auto options = std::make_shared<run_options>();
  options->command_line = context.command_line;
  CLI::App* command = app.add_subcommand("run", "profile the cases on the GPU and check them");
  add_selection_options(*command, options->selection);
  add_report_options(*command, options->reports, true);
  add_fail_fast_option(*command, options->reports);
  command->add_option("--save-counter-data", options->save_counter_data,
                      "keep each case's counter-data image here for `counterguard evaluate`");
  command->add_option("--metric", options->extra_metrics,
                      "also measure this metric in every case (repeatable)");
  command->add_flag("--require-gpu", options->require_gpu, "no GPU is an error (exit 3), not a skip");
  command
      ->add_option("--case-timeout", options->case_timeout_seconds, "seconds before a silent case is killed")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  add_device_options(*command, options->devices);
  add_shard_options(*command, options->cost_from, options->shard,
                    "balance shards by the per-case seconds of these results files (repeatable)");
  add_gpu_wait_option(*command, options->wait_for_gpu_seconds,
                      "seconds to wait while another counterguard or profiler holds the GPU");
  CLI::Option* blame_flag = command->add_flag(
      "--blame", options->blame_every_failure,
      "blame every failing case to source lines (default: cases whose exact metric regressed)");
  command
      ->add_flag("--no-blame", options->no_blame,
                 "no source-line blame, not even for a regressed exact metric")
      ->excludes(blame_flag);
  command->add_option("--blame-top", options->blame_top, "source lines shown per blamed case")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  command->add_option("--blame-external", options->blame_external,
                      "blame inlined code of this include directory (a library's) on the line that "
                      "calls it, like the CUDA toolkit's (repeatable)");
  return when_chosen(command, [options, command] {
    check_report_destinations(options->reports.files);
    options->devices.device_given = device_given_on(*command);
    const interruption_guard interruptions;
    return run_cases(*options);
  });
}

}  // namespace counterguard::detail
