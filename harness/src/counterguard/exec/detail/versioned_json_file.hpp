// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "counterguard/core/json_reader.hpp"

namespace counterguard::detail {

// A JSON file one side of `exec` writes for the other (instructions, process records, blame requests): read,
// parsed and refused when its schema_version is not the one this build reads.
struct versioned_json_file {
  json_reader reader;
  nlohmann::json document;
};

struct versioned_json_file_description {
  std::string what;            // "the exec instructions file": named when the file cannot be read
  std::string where_from;      // what writes it, said when it cannot be read
  std::int64_t version = 0;    // the schema_version this build reads
  std::string version_advice;  // appended to the refusal of another version (may be empty)
};

[[nodiscard]] versioned_json_file read_versioned_json_file(const std::string& path,
                                                           const versioned_json_file_description& file);

}  // namespace counterguard::detail
