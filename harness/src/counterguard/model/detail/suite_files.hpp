// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "counterguard/core/error.hpp"

// Suite files as text and YAML documents.
namespace counterguard::detail {

// The suite files `paths` name: files as they are, directories as their *.yaml files in name order, each
// once. Every path that names nothing to load is an input_error, all of them together.
[[nodiscard]] std::vector<std::string> suite_files(const std::vector<std::string>& paths);

// The text of the suite file at `path`; input_error for a missing, unreadable or directory path.
[[nodiscard]] std::string read_file(const std::string& path);

// The YAML documents of `text` (read from `path`); a syntax error is an input_error at its line and column.
[[nodiscard]] std::vector<YAML::Node> parse_documents(const std::string& path, const std::string& text);

// The one YAML document of the suite file at `path` (read_file, parse_documents): a file that holds no
// document (it is empty) or more than one is an input_error.
[[nodiscard]] YAML::Node read_suite_document(const std::string& path);

// A yaml-cpp exception while reading `path` as the input_error at its mark (the file alone where it has
// none): `problem` followed by yaml-cpp's message.
[[nodiscard]] input_error yaml_failure(const std::string& path, const YAML::Exception& failure,
                                       const std::string& field, const std::string& problem,
                                       const std::string& hint);

}  // namespace counterguard::detail
