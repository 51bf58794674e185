// SPDX-License-Identifier: Apache-2.0
// `counterguard blame`: per-instruction counters of a case's launches by source line and SASS
// (pipeline/sass_blame.hpp).
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/pipeline/sass_blame.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

command_action add_blame_command(CLI::App& app, const command_context& /*context*/) {
  auto options = std::make_shared<blame_options>();
  CLI::App* command = app.add_subcommand(
      "blame", "per-instruction counters of a case's launches (CUPTI SASS metrics) by source line and SASS");
  add_suite_paths(*command, options->selection.paths,
                  "suite files or directories of *.yaml (default: cases)");
  command
      ->add_option("--case", options->case_patterns,
                   "case instance name or glob (* is a wildcard); repeat for several")
      ->allow_extra_args(false);  // `--case X cases/`: the path stays a path
  command->add_option("--instance", options->instance, "the Nth (from 0) of the instances --case matches");
  command->add_option("--record", options->record,
                      "write the per-PC profile here (JSON, for --from/--against)");
  command->add_option("--record-dir", options->record_dir,
                      "write one profile per instance here (NNNN.json) and index.json naming each");
  command->add_flag("--quiet", options->quiet, "print no blame (with --record or --record-dir)");
  command
      ->add_option("--wait-for-gpu", options->wait_for_gpu_seconds,
                   "seconds to wait for another counterguard process to release the GPU")
      ->capture_default_str();
  command->add_option("--from", options->from, "no GPU: join and rank a recorded profile");
  command->add_option("--against", options->against,
                      "a profile recorded before: list the lines that changed");
  command->add_option("--binary", options->binary,
                      "the program holding the kernels' cubins (default: the profile's, or this program)");
  command->add_option("--metric", options->metrics,
                      "blame metric (executed_instructions, shared_wavefronts, ...) or a SASS metric "
                      "name; default: every blame metric the chip has");
  command->add_option("--top", options->top, "lines per metric and changes to print (0: all)")
      ->capture_default_str();
  command->add_option("--json", options->json, json_option_help("the joined blame (and changes)"))
      ->type_name("FILE");
  command->add_option("--device", options->device, "CUDA device ordinal")->capture_default_str();
  command->add_flag("--lines-only", options->lines_only, "no nvdisasm: PC offsets and source lines only");
  command->add_option("--blame-external", options->blame_external,
                      "blame inlined code of this include directory (a library's) on the line that calls it, "
                      "like the CUDA toolkit's (repeatable)");
  command->add_flag("--list-metrics", options->list_metrics, "list the device's SASS metrics and exit");
  command->add_flag("--trace", options->trace, "print every CUPTI call and what it returned (stderr)");
  command
      ->add_option("--chip", options->selection.chip,
                   "chip that the cases' raw metric names are validated for")
      ->capture_default_str();
  return when_chosen(command, [options] { return blame_cases(*options); });
}

}  // namespace counterguard::detail
