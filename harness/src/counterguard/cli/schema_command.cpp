// SPDX-License-Identifier: Apache-2.0
// `counterguard schema suite|results`: the JSON Schema of the suite YAML or of the results JSON
// (pipeline/json_schemas.hpp), for editors and validators. No GPU needed.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>
#include <vector>

#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/pipeline/json_schemas.hpp"
#include "detail/commands.hpp"

namespace counterguard::detail {

command_action add_schema_command(CLI::App& app, const command_context& /*context*/) {
  auto name = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand("schema",
                                         "print the JSON Schema (draft 2020-12) of the suite YAML (for "
                                         "editors: docs/schema.md) or of the results "
                                         "JSON");
  command->add_option("name", *name, "suite or results")
      ->required()
      ->check(CLI::Validator(
          [](const std::string& value) -> std::string {
            const std::vector<std::string> names = json_schema_names();
            if (std::find(names.begin(), names.end(), value) != names.end())
              return {};
            return "no schema named '" + value + "'; " + did_you_mean(value, names) +
                   "the schemas: " + comma_list(names);
          },
          "{" + comma_list(json_schema_names()) + "}"));
  return when_chosen(command, [name] { return print_json_schema(*name, {}); });
}

}  // namespace counterguard::detail
