// SPDX-License-Identifier: Apache-2.0
// `counterguard launch`: each case's kernels run once, verified, without profiling
// (pipeline/kernel_launches.hpp).
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/pipeline/kernel_launches.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

command_action add_launch_command(CLI::App& app, const command_context& /*context*/) {
  auto selection = std::make_shared<selection_options>();
  CLI::App* command = app.add_subcommand(
      "launch",
      "run each case's kernels once, verified, without profiling (for ncu, nsys, compute-sanitizer)");
  add_selection_options(*command, *selection);
  return when_chosen(command, [selection] { return launch_cases(*selection); });
}

}  // namespace counterguard::detail
