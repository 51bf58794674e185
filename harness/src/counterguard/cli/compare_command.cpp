// SPDX-License-Identifier: Apache-2.0
// `counterguard compare A B`: two runs side by side, metric by metric (pipeline/run_compare.hpp).
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/pipeline/run_compare.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

command_action add_compare_command(CLI::App& app, const command_context& /*context*/) {
  auto options = std::make_shared<compare_options>();
  CLI::App* command = app.add_subcommand(
      "compare",
      "two runs side by side, metric by metric: results JSON files, or runs of a --history database");
  command
      ->add_option("a", options->a,
                   "the earlier run: a results JSON file, or (with --history) run:ID, a run "
                   "id or the start of a commit")
      ->required();
  command->add_option("b", options->b, "the later run, likewise")->required();
  command->add_option(
      "--history", options->history,
      "history database: names runs by id or commit, and gives noisy metrics a noise estimate");
  command->add_option("--gpu-key", options->gpu_key, "the GPU key whose runs a commit names");
  command->add_option("--markdown", options->markdown, "also write the comparison as Markdown here");
  command->add_option("--json", options->json, json_option_help("every compared metric"))->type_name("FILE");
  command->add_flag("--all", options->all, "list the unchanged metrics too");
  command->add_flag("--fail-on-change", options->fail_on_change,
                    "exit 1 when an exact or static metric changed or a noisy one likely changed");
  command->add_option("--noise-window", options->noise_window, "earlier values a noise estimate uses")
      ->capture_default_str()
      ->check(CLI::Range(3, 100000));
  command->add_option("--z-threshold", options->z_threshold, "|robust z| from which a noisy change is likely")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  return when_chosen(command, [options] { return compare_two_runs(*options); });
}

}  // namespace counterguard::detail
