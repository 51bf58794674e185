// SPDX-License-Identifier: Apache-2.0
#include "detail/suite_files.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "counterguard/core/input_errors.hpp"
#include "counterguard/core/yaml_reader.hpp"

namespace counterguard::detail {

input_error yaml_failure(const std::string& path, const YAML::Exception& failure, const std::string& field,
                         const std::string& problem, const std::string& hint) {
  source_location where{path, 0, 0};
  if (!failure.mark.is_null())
    where = {path, failure.mark.line + 1, failure.mark.column + 1};
  return input_error(where, field, problem + failure.msg, hint);
}

std::vector<std::string> suite_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  input_error_collector errors;
  for (const std::string& path : paths) {
    std::error_code status;
    if (!std::filesystem::exists(path, status)) {
      errors.add(input_error({path, 0, 0}, "", "no such file or directory",
                             "give suite files (*.yaml) or directories that hold them"));
      continue;
    }
    if (!std::filesystem::is_directory(path, status)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::filesystem::path> found;
    for (const auto& item : std::filesystem::directory_iterator(path)) {
      if (item.is_regular_file() && item.path().extension() == ".yaml")
        found.push_back(item.path());
    }
    if (found.empty()) {
      errors.add(input_error({path, 0, 0}, "", "the directory holds no *.yaml files",
                             "give suite files (*.yaml) or directories that hold them"));
      continue;
    }
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
    for (const auto& file : found)
      files.push_back(file.string());
  }
  errors.throw_if_any();
  std::vector<std::string> unique;
  std::vector<std::filesystem::path> seen;
  for (const std::string& file : files) {
    std::error_code status;
    std::filesystem::path canonical = std::filesystem::weakly_canonical(file, status);
    if (status)
      canonical = file;
    if (std::find(seen.begin(), seen.end(), canonical) != seen.end())
      continue;  // named twice
    seen.push_back(canonical);
    unique.push_back(file);
  }
  return unique;
}

std::string read_file(const std::string& path) {
  const source_location where{path, 0, 0};
  std::error_code status;
  if (!std::filesystem::exists(path, status)) {
    throw input_error(where, "", "no such file", "give the path of a suite file (*.yaml)");
  }
  if (std::filesystem::is_directory(path, status)) {
    throw input_error(where, "", "is a directory, not a suite file",
                      "give the path of a suite file (*.yaml)");
  }
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream text;
  text << stream.rdbuf();
  if (!stream || stream.bad())
    throw input_error(where, "", "cannot read the file", "check that it is readable");
  return text.str();
}

std::vector<YAML::Node> parse_documents(const std::string& path, const std::string& text) {
  try {
    return YAML::LoadAll(text);
  } catch (const YAML::Exception& failure) {
    throw yaml_failure(path, failure, "", "YAML syntax error: ", "see docs/schema.md for the suite format");
  }
}

YAML::Node read_suite_document(const std::string& path) {
  const std::vector<YAML::Node> documents = parse_documents(path, read_file(path));
  if (documents.empty() || documents[0].IsNull()) {
    throw input_error({path, 0, 0}, "", "the file holds no suite (it is empty)",
                      "a suite is a map with 'suite: <name>' and 'cases:' (see docs/schema.md)");
  }
  if (documents.size() > 1) {
    yaml_reader(path).fail(documents[1], "",
                           "the file holds " + std::to_string(documents.size()) + " YAML documents",
                           "put one suite in each file");
  }
  return documents[0];
}

}  // namespace counterguard::detail
