// SPDX-License-Identifier: Apache-2.0
// `counterguard sass --binary F --kernel K`: a kernel's SASS with its source lines
// (pipeline/sass_listing.hpp).
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/pipeline/sass_listing.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

command_action add_sass_command(CLI::App& app, const command_context& /*context*/) {
  auto options = std::make_shared<sass_options>();
  CLI::App* command = app.add_subcommand(
      "sass",
      "a kernel's SASS instructions with their source lines (-lineinfo) and memory instructions per line");
  command->add_option("--binary", options->binary, "program, shared library, .cubin or .fatbin")->required();
  command
      ->add_option("--kernel", options->kernel,
                   "function name: mangled, demangled, demangled without parameters or namespaces")
      ->required();
  command->add_option("--arch", options->architecture, "only the cubin for this architecture (sm_90)");
  command->add_flag("--lines-only", options->lines_only,
                    "no disassembly (no nvdisasm needed): PC offsets and source lines only");
  command->add_option("--json", options->json, json_option_help("the instructions"))->type_name("FILE");
  return when_chosen(command, [options] { return show_kernel_sass(*options); });
}

}  // namespace counterguard::detail
