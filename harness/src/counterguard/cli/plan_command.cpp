// SPDX-License-Identifier: Apache-2.0
// `counterguard plan [paths]`: the profiler configurations a `run` of the cases would use on a chip
// (pipeline/profiler_plan.hpp). No GPU needed.
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/pipeline/profiler_plan.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

command_action add_plan_command(CLI::App& app, const command_context& /*context*/) {
  struct plan_options {
    selection_options selection;
    std::string json;
  };
  auto options = std::make_shared<plan_options>();
  CLI::App* command = app.add_subcommand(
      "plan",
      "print the profiler configurations a run of the cases would use: counters, replay passes, cases "
      "(no GPU needed)");
  add_selection_options(*command, options->selection);
  command->add_option("--json", options->json, json_option_help("the configurations"))->type_name("FILE");
  return when_chosen(command, [options] { return print_profiler_plan(options->selection, options->json); });
}

}  // namespace counterguard::detail
