// SPDX-License-Identifier: Apache-2.0
// Unknown commands and options, named with the closest valid ones (as rustc and git do) instead of CLI11's
// "A subcommand is required" or "The following argument was not expected".
#include "detail/unknown_arguments.hpp"

#include <CLI/CLI.hpp>
#include <vector>

#include "counterguard/core/name_suggestions.hpp"

namespace counterguard::detail {
namespace {

// The command the parse went deepest into: `baseline` for `counterguard baseline updte`.
const CLI::App& chosen_command(const CLI::App& app) {
  for (const CLI::App* command : app.get_subcommands())
    return chosen_command(*command);
  return app;
}

// "counterguard baseline": the command as the user typed it.
std::string command_path(const CLI::App& command) {
  std::string path = command.get_name();
  for (const CLI::App* parent = command.get_parent(); parent != nullptr; parent = parent->get_parent())
    path = (parent->get_parent() == nullptr ? std::string("counterguard") : parent->get_name()) + " " + path;
  return command.get_parent() == nullptr ? std::string("counterguard") : path;
}

std::vector<std::string> visible_subcommands(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::App* sub :
       command.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    names.push_back(sub->get_name());
  return names;
}

// The options the command takes, its own and (CLI11's fallthrough) those of the commands above it.
std::vector<std::string> option_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::App* level = &command; level != nullptr; level = level->get_parent()) {
    for (const CLI::Option* option : level->get_options()) {
      for (const std::string& name : option->get_lnames())
        names.push_back("--" + name);
      for (const std::string& name : option->get_snames())
        names.push_back("-" + name);
    }
  }
  return names;
}

// "; did you mean 'static'?" for the one closest candidate, when it is close enough to be meant.
std::string suggestion(const std::string& name, const std::vector<std::string>& candidates) {
  std::string text = did_you_mean(name, closest_names(name, candidates, 1));
  while (!text.empty() && text.back() == ' ')
    text.pop_back();
  return text.empty() ? text : "; " + text;
}

}  // namespace

std::optional<std::string> describe_unknown_argument(const CLI::App& app) {
  const std::vector<std::string> left = app.remaining(true);
  if (left.empty())
    return std::nullopt;
  const CLI::App& command = chosen_command(app);
  const std::string& argument = left.front();
  if (argument.size() > 1 && argument[0] == '-') {
    const std::string name = argument.substr(0, argument.find('='));  // --jsn=out.json
    return "unknown option '" + name + "' of '" + command_path(command) + "'" +
           suggestion(name, option_names(command)) + " (`" + command_path(command) +
           " --help` lists its options)";
  }
  const std::vector<std::string> commands = visible_subcommands(command);
  if (commands.empty())
    return std::nullopt;  // a command without subcommands given an extra argument: CLI11 says which
  const std::string hint = suggestion(argument, commands);
  return "unknown command '" + argument + "'" +
         (command.get_parent() == nullptr ? std::string() : " of '" + command_path(command) + "'") +
         (hint.empty() ? "; commands: " + comma_list(commands) : hint);
}

}  // namespace counterguard::detail
