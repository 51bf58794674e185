// SPDX-License-Identifier: Apache-2.0
#pragma once
// The subcommands of the command line (docs/cli.md). Each is added the same way: add_<name>_command adds its
// subcommand and options to the application and returns its action, which runs it through the pipeline
// (pipeline/) when it was chosen. Options that several commands share come from option_groups.hpp.

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace counterguard::detail {

// What every command may use besides its own options.
struct command_context {
  std::string command_line;  // the arguments joined, as results files record them
};

// The exit status when its command was chosen, std::nullopt otherwise.
using command_action = std::function<std::optional<int>()>;
using command_adder = command_action (*)(CLI::App& app, const command_context& context);

// The action that runs `run` when `command` was chosen.
[[nodiscard]] command_action when_chosen(const CLI::App* command, std::function<int()> run);
// The action of a command with subcommands: that of the one chosen among `subcommands`' actions.
[[nodiscard]] command_action first_chosen(std::vector<command_action> subcommands);

command_action add_run_command(CLI::App& app, const command_context& context);
command_action add_static_command(CLI::App& app, const command_context& context);
command_action add_evaluate_command(CLI::App& app, const command_context& context);
command_action add_baseline_command(CLI::App& app, const command_context& context);  // update, diff
command_action add_metrics_command(CLI::App& app, const command_context& context);   // list, validate
command_action add_kernels_command(CLI::App& app, const command_context& context);
command_action add_launch_command(CLI::App& app, const command_context& context);
command_action add_history_command(CLI::App& app, const command_context& context);  // import, list
command_action add_compare_command(CLI::App& app, const command_context& context);
command_action add_exec_command(CLI::App& app, const command_context& context);
command_action add_record_command(CLI::App& app, const command_context& context);
command_action add_merge_command(CLI::App& app, const command_context& context);
command_action add_list_command(CLI::App& app, const command_context& context);
command_action add_plan_command(CLI::App& app, const command_context& context);
command_action add_sass_command(CLI::App& app, const command_context& context);
command_action add_blame_command(CLI::App& app, const command_context& context);
command_action add_schema_command(CLI::App& app, const command_context& context);

// For `counterguard exec|record|baseline update ... -- program args`: removes "--" and everything after it
// from `arguments` and keeps it as the program to run (program_arguments); leaves other command lines alone
// (exec_command.cpp).
void take_exec_program(std::vector<char*>& arguments);
// The program and its arguments take_exec_program kept (empty when there was none).
[[nodiscard]] std::vector<std::string>& program_arguments();
// This process's command line, as results record it.
[[nodiscard]] std::string own_command_line();

}  // namespace counterguard::detail
