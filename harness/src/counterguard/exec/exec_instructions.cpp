// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/exec_instructions.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/json_reader.hpp"
#include "detail/versioned_json_file.hpp"

namespace counterguard {

void save_exec_instructions(const std::string& path, const exec_instructions& instructions) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : instructions.cases) {
    cases.push_back({{"name", c.name},
                     {"selector", launch_selector_to_json(c.selector)},
                     {"raw_metrics", c.raw_metrics},
                     {"own_configuration", c.own_configuration}});
  }
  const nlohmann::json document{{"schema_version", exec_instructions::schema_version},
                                {"output_directory", instructions.output_directory},
                                {"cases", std::move(cases)},
                                {"first_pass_group", instructions.first_pass_group},
                                {"pass_group_count", instructions.pass_group_count},
                                {"automatic_replay", instructions.automatic_replay}};
  write_file_atomically(path, document.dump(2) + "\n");
}

exec_instructions load_exec_instructions(const std::string& path) {
  const auto file = detail::read_versioned_json_file(
      path, {"the exec instructions file", "it is written by `counterguard exec`; run the program through it",
             exec_instructions::schema_version,
             " (the injection library and the counterguard that wrote the file differ)"});
  const json_reader& reader = file.reader;
  const nlohmann::json& document = file.document;
  exec_instructions instructions;
  instructions.output_directory = reader.string(document, "", "output_directory");
  const nlohmann::json& cases = reader.array(document, "", "cases");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string field = index_at("cases", i);
    reader.require_object(cases[i], field);
    exec_case_request request;
    request.name = reader.string(cases[i], field, "name");
    request.selector = launch_selector_from_json(reader.member(cases[i], field, "selector"), path,
                                                 field_at(field, "selector"));
    request.raw_metrics = reader.strings(cases[i], field, "raw_metrics");
    if (reader.optional_member(cases[i], field, "own_configuration") != nullptr)
      request.own_configuration = reader.boolean(cases[i], field, "own_configuration");
    instructions.cases.push_back(std::move(request));
  }
  if (reader.optional_member(document, "", "first_pass_group") != nullptr)
    instructions.first_pass_group =
        static_cast<int>(reader.integer(document, "", "first_pass_group", 0, 1000000));
  if (reader.optional_member(document, "", "pass_group_count") != nullptr)
    instructions.pass_group_count =
        static_cast<int>(reader.integer(document, "", "pass_group_count", 0, 1000000));
  if (reader.optional_member(document, "", "automatic_replay") != nullptr)
    instructions.automatic_replay = reader.boolean(document, "", "automatic_replay");
  return instructions;
}

}  // namespace counterguard
