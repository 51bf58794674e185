// SPDX-License-Identifier: Apache-2.0
#include "counterguard/blame/line_baseline_file.hpp"

#include <fstream>
#include <sstream>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/json_reader.hpp"

namespace counterguard {
namespace {

constexpr const char* format_name = "counterguard-line-baseline";

}  // namespace

std::string line_baseline_path(const std::string& directory, const std::string& gpu_key,
                               const std::string& suite) {
  std::string path = directory;
  if (!path.empty() && path.back() != '/')
    path += '/';
  return path + gpu_key + "/" + suite + ".lines.json";
}

std::string render_line_baseline(const line_baseline_file& file) {
  nlohmann::json cases = nlohmann::json::object();
  for (const auto& [instance, profile] : file.cases)
    cases[instance] = to_json(profile);
  const nlohmann::json out = {{"format", format_name},   {"schema_version", line_baseline_schema_version},
                              {"gpu_key", file.gpu_key}, {"suite", file.suite},
                              {"chip", file.chip},       {"cases", cases}};
  return out.dump(1) + "\n";
}

line_baseline_file parse_line_baseline(const std::string& text, const std::string& path) {
  const json_reader in(path);
  const nlohmann::json document = in.parse(text);
  in.require_object(document, "");
  if (in.string(document, "", "format") != format_name)
    in.fail("format", "is not '" + std::string(format_name) + "'",
            "a file written by `baseline update --with-lines`");
  line_baseline_file file;
  file.schema_version =
      static_cast<int>(in.integer(document, "", "schema_version", 1, line_baseline_schema_version));
  file.gpu_key = in.string(document, "", "gpu_key");
  file.suite = in.string(document, "", "suite");
  file.chip = in.string(document, "", "chip");
  const nlohmann::json& cases = in.object(document, "", "cases");
  for (const auto& [instance, profile] : cases.items())
    file.cases[instance] =
        line_profile_from_json(in, profile, field_at("cases", instance), file.schema_version == 1);
  return file;
}

std::optional<line_baseline_file> load_line_baseline_file(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return parse_line_baseline(text.str(), path);
}

void save_line_baseline_file(const std::string& path, const line_baseline_file& file) {
  write_file_atomically(path, render_line_baseline(file));
}

}  // namespace counterguard
