// SPDX-License-Identifier: Apache-2.0
// Writing and reading exec.json and resources.json; a malformed file is an input_error naming file and field.
#include "counterguard/exec/exec_envelope.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/field_path.hpp"
#include "counterguard/core/json_reader.hpp"
#include "counterguard/model/launch_selector.hpp"
#include "counterguard/statics/kernel_resources_json.hpp"

namespace counterguard {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* resources_file = "resources.json";

std::string read_text(const fs::path& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw input_error({path.string()}, "", "cannot read the " + what,
                      "record it again with `counterguard exec`");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

json resources_to_json(const std::vector<kernel_resources>& resources) {
  json kernels = json::array();
  for (const auto& kernel : resources)
    kernels.push_back(kernel_resources_to_json(kernel));
  return kernels;
}

}  // namespace

bool is_exec_recording(const fs::path& directory) {
  std::error_code status;
  return fs::is_regular_file(directory / exec_envelope_file, status);
}

void save_exec_envelope(const fs::path& directory, const exec_envelope& envelope) {
  json cases = json::array();
  for (const auto& c : envelope.command_line_cases)
    cases.push_back({{"name", c.name}, {"selector", launch_selector_to_json(c.selector)}});
  const json document{{"suite_paths", envelope.suite_paths},
                      {"command_line_cases", std::move(cases)},
                      {"extra_metrics", envelope.extra_metrics},
                      {"program", program_outcome_to_json(envelope.program)},
                      {"allow_program_failure", envelope.allow_program_failure},
                      {"results", envelope.results}};
  write_file_atomically((directory / exec_envelope_file).string(), document.dump(2) + "\n");
}

exec_envelope load_exec_envelope(const fs::path& directory) {
  const fs::path path = directory / exec_envelope_file;
  const json_reader reader(path.string());
  const json document = reader.parse(read_text(path, "exec recording"));
  reader.require_object(document, "");
  exec_envelope envelope;
  envelope.suite_paths = reader.strings(document, "", "suite_paths");
  const json& cases = reader.array(document, "", "command_line_cases");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string field = index_at("command_line_cases", i);
    reader.require_object(cases[i], field);
    exec_case_request request;
    request.name = reader.string(cases[i], field, "name");
    request.selector = launch_selector_from_json(reader.member(cases[i], field, "selector"), path.string(),
                                                 field_at(field, "selector"));
    envelope.command_line_cases.push_back(std::move(request));
  }
  envelope.extra_metrics = reader.strings(document, "", "extra_metrics");
  envelope.program =
      program_outcome_from_json(reader.member(document, "", "program"), path.string(), "program");
  envelope.allow_program_failure = reader.boolean(document, "", "allow_program_failure");
  envelope.results = read_run_results(reader.object(document, "", "results"), path.string());
  return envelope;
}

void save_recorded_resources(const fs::path& directory, const std::vector<kernel_resources>& resources) {
  write_file_atomically((directory / resources_file).string(),
                        json{{"kernels", resources_to_json(resources)}}.dump(2) + "\n");
}

std::vector<kernel_resources> load_recorded_resources(const fs::path& directory) {
  std::vector<kernel_resources> resources;
  const fs::path path = directory / resources_file;
  std::error_code status;
  if (!fs::exists(path, status))
    return resources;
  const json_reader reader(path.string());
  const json document = reader.parse(read_text(path, "resource file"));
  reader.require_object(document, "");
  const json& kernels = reader.array(document, "", "kernels");
  for (std::size_t i = 0; i < kernels.size(); ++i)
    resources.push_back(kernel_resources_from_json(reader, kernels[i], index_at("kernels", i)));
  return resources;
}

}  // namespace counterguard
