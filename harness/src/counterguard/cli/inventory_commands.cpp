// SPDX-License-Identifier: Apache-2.0
// Commands that list what this runner knows: `metrics list|validate`, `kernels`, `list`
// (pipeline/inventory.hpp). No GPU needed.
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/build_info.hpp"
#include "counterguard/pipeline/inventory.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

command_action add_metrics_command(CLI::App& app, const command_context& /*context*/) {
  struct metrics_options {
    std::string chip = COUNTERGUARD_DEFAULT_CHIP;
    bool raw = false;
    bool ncu = false;
    std::string json;
    selection_options validated;
  };
  auto options = std::make_shared<metrics_options>();
  CLI::App* metrics = app.add_subcommand("metrics", "metric aliases and CUPTI metric names (no GPU needed)");
  metrics->require_subcommand(1);
  CLI::App* list = metrics->add_subcommand("list", "list the aliases, or a chip's raw CUPTI metrics");
  list->add_option("--chip", options->chip, "chip for --raw")->capture_default_str();
  list->add_flag("--raw", options->raw, "list every raw CUPTI metric name of the chip");
  list->add_flag("--ncu", options->ncu,
                 "list ncu's launch__ and device__attribute_ names counterguard reports");
  list->add_option("--json", options->json,
                   json_option_help("the aliases (name, class, direction, source, formula, inputs, unit)"))
      ->type_name("FILE");
  CLI::App* validate = metrics->add_subcommand("validate", "check every metric the cases name");
  add_selection_options(*validate, options->validated);
  options->validated.allow_program_cases = true;  // program suites name metrics too
  return first_chosen(
      {when_chosen(
           list,
           [options] { return list_metrics(options->chip, options->raw, options->json, options->ncu); }),
       when_chosen(validate, [options] { return validate_metrics(options->validated); })});
}

command_action add_kernels_command(CLI::App& app, const command_context& /*context*/) {
  return when_chosen(app.add_subcommand("kernels", "list the registered kernel variants"), list_kernels);
}

command_action add_list_command(CLI::App& app, const command_context& /*context*/) {
  auto options = std::make_shared<list_options>();
  CLI::App* command =
      app.add_subcommand("list", "print the case instances of suites, one name per line (no GPU needed)");
  add_suite_paths(*command, options->paths, "suite files or directories of *.yaml (default: cases)");
  add_filter_option(*command, options->filter);
  command
      ->add_option("--json", options->json,
                   json_option_help("the instances ({instance, suite, case, file, line})"))
      ->type_name("FILE");
  return when_chosen(command, [options] { return list_instances(*options); });
}

}  // namespace counterguard::detail
